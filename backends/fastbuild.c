/*
 * fastbuild.c - cold builds without a CMake configure per module.
 *
 * Configuring a CMake project and parsing Kokkos_Core.hpp dominate a cold
 * `pkc build` of a small file. Both are the same for every module of one
 * toolchain (backend, Kokkos install, compiler, CXX/CXXFLAGS, the CPU, pkc's
 * support headers), so pkc configures a probe project once per toolchain
 * in its cache directory (the same CMakeLists.txt it generates for modules),
 * keeps the compile and link commands CMake chose for it, and precompiles
 * pkc_kokkos.hpp with exactly that compile command. A module's build then
 * runs those two commands with its own source, object and output, the
 * header coming from the precompiled one (forced with -include; the
 * module's own #include of it finds the guard set). The generated project
 * is still written, and builds the same module with CMake.
 *
 * The support functions that are no templates (pkc_glue.hpp: the module
 * functions, argument and range checks) are compiled once per toolchain
 * too, into pkc_glue.o beside the header, with the module's flags; every
 * module is compiled with PKC_PREBUILT_GLUE (the header then only declares
 * them) and linked with that object, so a module .so stays self-contained
 * (it loads when the cache is gone). A module with no kernels of its own
 * (every workunit typed at run time: its source includes only
 * pkc_glue.hpp) is compiled without the precompiled Kokkos header.
 *
 * The captured commands are split into argument vectors once (CMake quotes
 * them for a POSIX shell; split_words undoes exactly that quoting and
 * refuses anything else) and kept one argument per line; the module's paths
 * are then whole arguments and nothing runs through a shell, whatever the
 * characters of a path (issue 22).
 *
 * Cache: $PKC_CACHE_DIR, else $XDG_CACHE_HOME/pkc, else ~/.cache/pkc;
 * toolchains/<SHA-256 of everything above>/. PKC_FAST_BUILD=0 (or any setup
 * failure, logged) builds with CMake instead. GPU backends always use CMake.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pkb_priv.h"

typedef struct toolchain {
  char dir[4096];      /* the toolchain's cache directory */
  char probe[4200];    /* its probe project */
  char build[4300];    /* the probe's build directory */
} toolchain;

static const char *const SUPPORT[] = {"pkc_kokkos.hpp", "pkc_dialect.hpp", "pkc_glue.hpp",
                                      "pkc_abi.h", "dlpack/dlpack.h", NULL};

static const char *cache_root(pki_arena *a) {
  const char *d = getenv("PKC_CACHE_DIR");
  if (d && *d)
    return d;
  d = getenv("XDG_CACHE_HOME");
  if (d && *d)
    return pki_sprintf(a, "%s/pkc", d);
  d = getenv("HOME");
  return d && *d ? pki_sprintf(a, "%s/.cache/pkc", d) : NULL;
}

/* The toolchain's key: what the probe's commands and the precompiled header
 * depend on (the module's own source and texts are in its cache key). */
static int toolchain_key(const pki_module *m, const pkb_options *o, const char *cmake,
                         char out[65]) {
  pkb_buf b;
  pkb_buf_init(&b);
  pkb_putf(&b, "pkc-toolchain 3\npkc %s\nbackend %s\nkokkos %s\nCXX %s\nCXXFLAGS %s\nLDFLAGS %s\n",
           o->pkc_version, o->backend, o->kokkos_root ? o->kokkos_root : "",
           getenv("CXX") ? getenv("CXX") : "", getenv("CXXFLAGS") ? getenv("CXXFLAGS") : "",
           getenv("LDFLAGS") ? getenv("LDFLAGS") : ""); /* CMake reads LDFLAGS too */
  char cfg[4200];
  snprintf(cfg, sizeof cfg, "%s/include/KokkosCore_config.h", o->kokkos_root ? o->kokkos_root : "");
  char *text = pkb_read_file(cfg, NULL);
  pkb_put(&b, text ? text : "");
  free(text);
  pkb_put(&b, cmake);
  char cpu[65];
  pkb_cpu_id(cpu); /* -march=native */
  pkb_put(&b, cpu);
  for (int i = 0; SUPPORT[i]; i++)
    pkb_put(&b, pkb_embedded(SUPPORT[i]) ? pkb_embedded(SUPPORT[i]) : "");
  (void)m;
  int rc = pkb_sha256_hex(b.data, b.len, out);
  pkb_buf_free(&b);
  return rc;
}

static int write_support(const char *dir) {
  char path[4400];
  snprintf(path, sizeof path, "%s/dlpack", dir);
  if (pkb_mkdirs(path) != 0)
    return -1;
  for (int i = 0; SUPPORT[i]; i++) {
    const char *text = pkb_embedded(SUPPORT[i]);
    snprintf(path, sizeof path, "%s/%s", dir, SUPPORT[i]);
    if (!text || pkb_write_if_changed(path, text, strlen(text)) != 0)
      return -1;
  }
  return 0;
}

/* Replaces every occurrence of from in s by to (arena string). */
static char *replace_all(pki_arena *a, const char *s, const char *from, const char *to) {
  pkb_buf b;
  pkb_buf_init(&b);
  size_t n = strlen(from);
  for (const char *p = s, *q; *p; p = q + n) {
    q = strstr(p, from);
    if (!q) {
      pkb_put(&b, p);
      break;
    }
    pkb_putf(&b, "%.*s%s", (int)(q - p), p, to);
  }
  char *r = pki_sprintf(a, "%s", b.data ? b.data : "");
  pkb_buf_free(&b);
  return r;
}

/* An argument vector (arena strings, NULL-terminated). */
typedef struct argvec {
  char **v;
  int n, cap;
} argvec;

static void argv_push(pki_arena *a, argvec *av, const char *arg) {
  if (av->n + 2 > av->cap) {
    int cap = av->cap ? 2 * av->cap : 64;
    char **v = pki_alloc(a, (size_t)cap * sizeof *v);
    if (av->n)
      memcpy(v, av->v, (size_t)av->n * sizeof *v);
    av->v = v;
    av->cap = cap;
  }
  av->v[av->n++] = pki_strdup(a, arg);
  av->v[av->n] = NULL;
}

/* Splits a command line as a POSIX shell would split CMake's quoting of it:
 * blanks separate words; '...' is literal; "..." and a bare backslash
 * escape the next character (in "...", only $ ` " \ and newline). Anything
 * a shell would expand or interpret ($, `, |, ;, &, <, >, (, ) unquoted, $
 * or ` in "...") or an unterminated quote: -1 (the caller builds with CMake). */
static int split_words(pki_arena *a, const char *s, argvec *av) {
  pkb_buf w;
  pkb_buf_init(&w);
  int rc = 0;
  bool in_word = false;
  for (const char *p = s; rc == 0 && *p; p++) { /* rc first: a quote may end at the NUL */
    if (strchr(" \t\n", *p)) {
      if (in_word)
        argv_push(a, av, w.data ? w.data : "");
      in_word = false;
      w.len = 0;
      if (w.data)
        w.data[0] = 0;
      continue;
    }
    in_word = true;
    if (*p == '\'') {
      const char *q = strchr(p + 1, '\'');
      if (!q)
        rc = -1;
      else
        pkb_putf(&w, "%.*s", (int)(q - p - 1), p + 1);
      p = q ? q : p;
    } else if (*p == '"') {
      for (p++; *p && *p != '"' && rc == 0; p++) {
        if (*p == '$' || *p == '`')
          rc = -1;
        else if (*p == '\\' && p[1] && strchr("$`\"\\\n", p[1]))
          p++;
        pkb_putf(&w, "%c", *p);
      }
      rc = *p == '"' ? rc : -1;
    } else if (*p == '\\' && p[1]) {
      pkb_putf(&w, "%c", *++p);
    } else if (strchr("$`|;&<>()", *p)) {
      rc = -1;
    } else {
      pkb_putf(&w, "%c", *p);
    }
  }
  if (rc == 0 && in_word)
    argv_push(a, av, w.data ? w.data : "");
  pkb_buf_free(&w);
  return rc == 0 && av->n > 0 ? 0 : -1;
}

/* Writes the arguments one per line ('\' and newline escaped). */
static int write_args(const char *path, const argvec *av) {
  pkb_buf b;
  pkb_buf_init(&b);
  for (int i = 0; i < av->n; i++) {
    for (const char *p = av->v[i]; *p; p++)
      pkb_put(&b, *p == '\\' ? "\\\\" : *p == '\n' ? "\\n" : (char[]){*p, 0});
    pkb_put(&b, "\n");
  }
  int rc = pkb_write_if_changed(path, b.data ? b.data : "", b.len);
  pkb_buf_free(&b);
  return rc;
}

/* Reads what write_args wrote, each argument with @SRC@, @OBJ@ and @SO@
 * replaced (one pass: a path holding "@OBJ@" is not rewritten). */
static int read_args(pki_arena *a, const char *path, const char *const subst[6], argvec *av) {
  char *text = pkb_read_file(path, NULL);
  if (!text)
    return -1;
  pkb_buf w;
  pkb_buf_init(&w);
  for (const char *p = text; *p; p++) {
    int k = -1;
    for (int i = 0; i < 6 && k < 0; i += 2)
      if (!strncmp(p, subst[i], strlen(subst[i])))
        k = i;
    if (k >= 0) {
      pkb_put(&w, subst[k + 1]);
      p += strlen(subst[k]) - 1;
    } else if (*p == '\n') {
      argv_push(a, av, w.data ? w.data : "");
      w.len = 0;
      if (w.data)
        w.data[0] = 0;
    } else if (*p == '\\' && (p[1] == '\\' || p[1] == 'n')) {
      pkb_put(&w, *++p == 'n' ? "\n" : "\\");
    } else {
      pkb_putf(&w, "%c", *p);
    }
  }
  pkb_buf_free(&w);
  free(text);
  return av->n > 0 ? 0 : -1;
}

/* The "command" of the first entry of compile_commands.json, unescaped. */
static char *compile_command(pki_arena *a, const char *json) {
  const char *k = json ? strstr(json, "\"command\": \"") : NULL;
  if (!k)
    return NULL;
  pkb_buf b;
  pkb_buf_init(&b);
  for (const char *p = k + strlen("\"command\": \""); *p && *p != '"'; p++) {
    if (*p == '\\' && p[1])
      p++;
    pkb_putf(&b, "%c", *p);
  }
  char *r = pki_sprintf(a, "%s", b.data ? b.data : "");
  pkb_buf_free(&b);
  return r;
}

static bool has_arg(const argvec *av, const char *arg) {
  for (int i = 0; i < av->n; i++)
    if (strstr(av->v[i], arg))
      return true;
  return false;
}

/* Replaces every occurrence of from in each argument (templates). */
static void replace_in_args(pki_arena *a, argvec *av, const char *from, const char *to) {
  for (int i = 0; i < av->n; i++)
    av->v[i] = replace_all(a, av->v[i], from, to);
}

/* The toolchain's glue object (the definitions of pkc_glue.hpp). */
static const char *glue_obj(pki_arena *a, const toolchain *t) {
  return pki_sprintf(a, "%s/pkc_glue.o", t->dir);
}

/* Compiles pkc_glue.o with the module compile template cav, from the probe's
 * copy of the headers (no precompiled header beside it: the glue's macros
 * differ from a module's, and the one beside include/ is being written). */
static int make_glue(const pkb_options *o, const toolchain *t, const argvec *cav,
                     const char *log) {
  pki_arena *a = pki_arena_new();
  const char *src = pki_sprintf(a, "%s/pkc_glue.cpp", t->dir);
  static const char glue_cpp[] =
      "// The glue of every module built with this toolchain (pkc_glue.hpp), compiled once.\n"
      "#define PKC_GLUE_DEFINE 1\n"
      "#include \"probe/pkc_kokkos.hpp\"\n";
  /* written under a name of its own, then renamed: a setup interrupted
   * while its glue compiled never leaves a partial pkc_glue.o */
  const char *tmp = pki_sprintf(a, "%s/pkc_glue.%ld.o.tmp", t->dir, (long)getpid());
  argvec cc = {0};
  for (int i = 0; i < cav->n; i++) /* as read_args substitutes a module's paths */
    argv_push(a, &cc, replace_all(a, replace_all(a, cav->v[i], "@SRC@", src), "@OBJ@", tmp));
  int rc = pkb_write_if_changed(src, glue_cpp, strlen(glue_cpp)) == 0 &&
                   pkb_run_logged(cc.v, t->build, log, o->verbosity) == 0 &&
                   rename(tmp, glue_obj(a, t)) == 0
               ? 0
               : -1;
  if (rc != 0)
    unlink(tmp);
  pki_arena_free(a);
  return rc;
}

/* Configures the probe, keeps its commands as templates (compile.args,
 * link.args: one argument a line, with @SRC@, @OBJ@, @SO@) and precompiles
 * the header. */
static int setup(const pki_module *m, const pkb_options *o, const toolchain *t,
                 const char *cmake, const char *log) {
  pki_arena *a = m->arena;
  const char *inc = pki_sprintf(a, "%s/include", t->dir);
  if (write_support(t->probe) != 0 || write_support(inc) != 0)
    return -1;
  const char *cml = pki_sprintf(a, "%s/CMakeLists.txt", t->probe);
  const char *src = pki_sprintf(a, "%s/pkc_probe.cpp", t->probe);
  static const char probe_cpp[] = "#include \"pkc_kokkos.hpp\"\n";
  if (pkb_write_if_changed(cml, cmake, strlen(cmake)) != 0 ||
      pkb_write_if_changed(src, probe_cpp, strlen(probe_cpp)) != 0)
    return -1;
  const char *argv[12];
  int n = 0;
  argv[n++] = "cmake";
  argv[n++] = "-S";
  argv[n++] = t->probe;
  argv[n++] = "-B";
  argv[n++] = t->build;
  argv[n++] = "-DCMAKE_BUILD_TYPE=Release";
  argv[n++] = "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON";
  argv[n++] = pki_sprintf(a, "-DPKC_BACKEND=%s", o->backend);
  if (o->kokkos_root)
    argv[n++] = pki_sprintf(a, "-DKokkos_ROOT=%s", o->kokkos_root);
  argv[n] = NULL;
  /* configuring writes compile_commands.json and link.txt: nothing to build */
  if (pkb_run_logged((char *const *)argv, NULL, log, o->verbosity) != 0)
    return -1;
  char *json = pkb_read_file(pki_sprintf(a, "%s/compile_commands.json", t->build), NULL);
  char *cc = compile_command(a, json);
  free(json);
  const char *target = pki_sprintf(a, "pkc_probe_%s", o->backend);
  char *link = pkb_read_file(pki_sprintf(a, "%s/CMakeFiles/%s.dir/link.txt", t->build, target),
                             NULL);
  const char *obj = pki_sprintf(a, "CMakeFiles/%s.dir/pkc_probe.cpp.o", target);
  const char *so = pki_sprintf(a, "%s/pkc_probe.%s.so", t->probe, o->backend);
  argvec cav = {0}, lav = {0}, pav = {0};
  char *nl = link ? strchr(link, '\n') : NULL;
  bool one_line = nl && !nl[strspn(nl, "\n ")]; /* one command */
  bool ok = cc && link && one_line && split_words(a, cc, &cav) == 0 &&
            split_words(a, cc, &pav) == 0 && split_words(a, link, &lav) == 0;
  free(link);
  if (!ok || !has_arg(&cav, src) || !has_arg(&cav, obj) || !has_arg(&lav, obj) ||
      !has_arg(&lav, so) || !has_arg(&pav, "-c"))
    return -1;
  /* templates (pkb_fast_build forces the precompiled header in front of a
   * module's source); the glue comes from pkc_glue.o */
  replace_in_args(a, &cav, src, "@SRC@");
  replace_in_args(a, &cav, obj, "@OBJ@");
  argv_push(a, &cav, "-DPKC_PREBUILT_GLUE");
  argv_push(a, &pav, "-DPKC_PREBUILT_GLUE");
  replace_in_args(a, &lav, obj, "@OBJ@");
  replace_in_args(a, &lav, so, "@SO@");
  argvec link_glue = {0};
  for (int i = 0; i < lav.n; i++) {
    argv_push(a, &link_glue, lav.v[i]);
    if (!strcmp(lav.v[i], "@OBJ@"))
      argv_push(a, &link_glue, glue_obj(a, t));
  }
  fflush(stdout);
  fflush(stderr);
  pid_t glue = fork(); /* the glue compiles beside the precompiled header */
  if (glue == 0)
    _exit(make_glue(o, t, &cav, log) == 0 ? 0 : 1);
  /* the precompiled header: the compile command on the header itself */
  replace_in_args(a, &pav, src, pki_sprintf(a, "%s/pkc_kokkos.hpp", inc));
  replace_in_args(a, &pav, obj, pki_sprintf(a, "%s/pkc_kokkos.hpp.gch", inc));
  argvec pch = {0};
  for (int i = 0; i < pav.n; i++) {
    if (!strcmp(pav.v[i], "-c")) {
      argv_push(a, &pch, "-x");
      argv_push(a, &pch, "c++-header");
    }
    argv_push(a, &pch, pav.v[i]);
  }
  int pch_rc = pkb_run_logged(pch.v, t->build, log, o->verbosity), st = 0;
  pid_t got = -1;
  while (glue > 0 && (got = waitpid(glue, &st, 0)) < 0 && errno == EINTR)
    ;
  bool glue_ok = glue > 0 ? got == glue && WIFEXITED(st) && !WEXITSTATUS(st)
                          : make_glue(o, t, &cav, log) == 0; /* no fork: in turn */
  if (pch_rc != 0 || !glue_ok)
    return -1;
  if (write_args(pki_sprintf(a, "%s/compile.args", t->dir), &cav) != 0 ||
      write_args(pki_sprintf(a, "%s/link.args", t->dir), &link_glue) != 0)
    return -1;
  static const char ready[] = "ok\n";
  return pkb_write_if_changed(pki_sprintf(a, "%s/ready", t->dir), ready, strlen(ready));
}

/* Whether the toolchain's setup finished (and its glue object is still there). */
static bool ready(pki_arena *a, const toolchain *t) {
  return access(pki_sprintf(a, "%s/ready", t->dir), F_OK) == 0 &&
         access(glue_obj(a, t), F_OK) == 0;
}

/* The toolchain's directory, set up if needed (one process at a time). */
static int toolchain_for(const pki_module *m, const pkb_options *o, toolchain *t,
                         const char *log) {
  pki_arena *a = m->arena;
  const char *root = cache_root(a);
  if (!root || strpbrk(root, PKB_CMAKE_UNSAFE)) { /* the probe is a CMake project */
    FILE *lf = root ? fopen(log, "a") : NULL;
    if (lf) {
      fprintf(lf, "pkc: the cache directory %s holds one of ; \" $ \\ ` or a newline, which "
              "CMake cannot take: set PKC_CACHE_DIR to another\n", root);
      fclose(lf);
    }
    return -1;
  }
  pki_module *probe = pki_module_new("pkc_probe.py", "pkc_probe.py", "", 0);
  probe->name = "pkc_probe";
  pkb_buf cmake;
  pkb_buf_init(&cmake);
  pkb_gen_cmake(probe, o, &cmake);
  char key[65];
  int rc = toolchain_key(m, o, cmake.data, key);
  pki_module_free(probe);
  if (rc == 0) {
    snprintf(t->dir, sizeof t->dir, "%s/toolchains/%.32s", root, key);
    snprintf(t->probe, sizeof t->probe, "%s/probe", t->dir);
    snprintf(t->build, sizeof t->build, "%s/build", t->probe);
    rc = pkb_mkdirs(t->dir);
  }
  if (rc == 0 && !ready(a, t)) {
    int fd = open(pki_sprintf(a, "%s/.lock", t->dir), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    rc = fd >= 0 && flock(fd, LOCK_EX) == 0 ? 0 : -1;
    if (rc == 0 && !ready(a, t)) {
      if (o->progress)
        fprintf(stderr, "pkc: preparing the %s toolchain (once; %s)\n", o->backend, t->dir);
      rc = setup(m, o, t, cmake.data, log);
    }
    if (fd >= 0)
      close(fd);
  }
  pkb_buf_free(&cmake);
  return rc;
}

int pkb_fast_build(const pki_module *m, const pkb_options *o, bool bare, const char *build_dir,
                   const char *log, const char *so, char *err, size_t errlen) {
  const char *env = getenv("PKC_FAST_BUILD");
  if ((env && !strcmp(env, "0")) || (strcmp(o->backend, "openmp") && strcmp(o->backend, "serial")))
    return 0;
  pki_arena *a = m->arena;
  toolchain t;
  if (toolchain_for(m, o, &t, log) != 0) {
    FILE *lf = fopen(log, "a");
    if (lf) {
      fputs("pkc: no prepared toolchain: building with CMake\n", lf);
      fclose(lf);
    }
    return 0;
  }
  char out_abs[4096], dir_abs[4096]; /* the commands run in the probe's build directory */
  if (!realpath(o->outdir, out_abs) || !realpath(build_dir, dir_abs))
    return 0;
  const char *base = strrchr(so, '/');
  const char *const subst[6] = {
      "@SRC@", pki_sprintf(a, "%s/%s.cpp", out_abs, m->name),
      "@OBJ@", pki_sprintf(a, "%s/%s.o", dir_abs, m->name),
      "@SO@",  pki_sprintf(a, "%s/%s", out_abs, base ? base + 1 : so)};
  argvec cc = {0}, lk = {0};
  if (read_args(a, pki_sprintf(a, "%s/compile.args", t.dir), subst, &cc) != 0 ||
      read_args(a, pki_sprintf(a, "%s/link.args", t.dir), subst, &lk) != 0)
    return 0;
  /* the module's build directory holds pkc_cache_key.h */
  argv_push(a, &cc, pki_sprintf(a, "-I%s", dir_abs));
  if (!bare) { /* the precompiled header in front of the source */
    argv_push(a, &cc, "-include");
    argv_push(a, &cc, pki_sprintf(a, "%s/include/pkc_kokkos.hpp", t.dir));
  }
  if (pkb_run_logged(cc.v, t.build, log, o->verbosity) != 0 ||
      pkb_run_logged(lk.v, t.build, log, o->verbosity) != 0) {
    pkb_show_errors(log);
    snprintf(err, errlen, "toolchain failure: building %s for backend '%s' failed (log: %s)",
             m->name, o->backend, log);
    return -1;
  }
  return 1;
}
