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
#include <unistd.h>

#include "pkb_priv.h"

typedef struct toolchain {
  char dir[4096];      /* the toolchain's cache directory */
  char probe[4200];    /* its probe project */
  char build[4300];    /* the probe's build directory */
} toolchain;

static const char *const SUPPORT[] = {"pkc_kokkos.hpp", "pkc_dialect.hpp", "pkc_abi.h",
                                      "dlpack/dlpack.h", NULL};

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
  pkb_putf(&b, "pkc-toolchain 1\npkc %s\nbackend %s\nkokkos %s\nCXX %s\nCXXFLAGS %s\n",
           o->pkc_version, o->backend, o->kokkos_root ? o->kokkos_root : "",
           getenv("CXX") ? getenv("CXX") : "", getenv("CXXFLAGS") ? getenv("CXXFLAGS") : "");
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

static int run_sh(const char *cmd, const char *cwd, const char *log, int verbosity) {
  char *argv[] = {"sh", "-c", NULL, NULL};
  char *full = malloc(strlen(cmd) + strlen(cwd) + 16);
  if (!full)
    return -1;
  sprintf(full, "cd '%s' && %s", cwd, cmd);
  argv[2] = full;
  int rc = pkb_run_logged(argv, log, verbosity);
  free(full);
  return rc;
}

/* Configures the probe, keeps its commands as templates
 * (compile.sh, link.sh: @SRC@, @OBJ@, @SO@) and precompiles the header. */
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
  if (pkb_run_logged((char *const *)argv, log, o->verbosity) != 0)
    return -1;
  char *json = pkb_read_file(pki_sprintf(a, "%s/compile_commands.json", t->build), NULL);
  char *cc = compile_command(a, json);
  free(json);
  const char *target = pki_sprintf(a, "pkc_probe_%s", o->backend);
  char *link = pkb_read_file(pki_sprintf(a, "%s/CMakeFiles/%s.dir/link.txt", t->build, target),
                             NULL);
  const char *obj = pki_sprintf(a, "CMakeFiles/%s.dir/pkc_probe.cpp.o", target);
  const char *so = pki_sprintf(a, "%s/pkc_probe.%s.so", t->probe, o->backend);
  if (!cc || !link || !strstr(cc, src) || !strstr(cc, obj) || !strstr(link, obj) ||
      !strstr(link, so)) {
    free(link);
    return -1;
  }
  for (char *nl = strchr(link, '\n'); nl; nl = strchr(nl, '\n'))
    *nl = ' ';
  /* templates; the precompiled header is forced in front of the source */
  char *cct = replace_all(a, replace_all(a, cc, src, "@SRC@"), obj, "@OBJ@");
  cct = pki_sprintf(a, "%s -include '%s/pkc_kokkos.hpp'\n", cct, inc);
  char *lt = pki_sprintf(a, "%s\n", replace_all(a, replace_all(a, link, obj, "@OBJ@"), so, "@SO@"));
  free(link);
  /* the precompiled header: the compile command on the header itself */
  char *pch = replace_all(a, replace_all(a, cc, src, pki_sprintf(a, "'%s/pkc_kokkos.hpp'", inc)),
                          obj, pki_sprintf(a, "'%s/pkc_kokkos.hpp.gch'", inc));
  pch = replace_all(a, pch, " -c ", " -x c++-header -c ");
  if (run_sh(pch, t->build, log, o->verbosity) != 0)
    return -1;
  if (pkb_write_if_changed(pki_sprintf(a, "%s/compile.sh", t->dir), cct, strlen(cct)) != 0 ||
      pkb_write_if_changed(pki_sprintf(a, "%s/link.sh", t->dir), lt, strlen(lt)) != 0)
    return -1;
  static const char ready[] = "ok\n";
  return pkb_write_if_changed(pki_sprintf(a, "%s/ready", t->dir), ready, strlen(ready));
}

/* The toolchain's directory, set up if needed (one process at a time). */
static int toolchain_for(const pki_module *m, const pkb_options *o, toolchain *t,
                         const char *log) {
  pki_arena *a = m->arena;
  const char *root = cache_root(a);
  if (!root)
    return -1;
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
  if (rc == 0 && access(pki_sprintf(a, "%s/ready", t->dir), F_OK) != 0) {
    int fd = open(pki_sprintf(a, "%s/.lock", t->dir), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    rc = fd >= 0 && flock(fd, LOCK_EX) == 0 ? 0 : -1;
    if (rc == 0 && access(pki_sprintf(a, "%s/ready", t->dir), F_OK) != 0) {
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

int pkb_fast_build(const pki_module *m, const pkb_options *o, const char *build_dir,
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
  char *cc = pkb_read_file(pki_sprintf(a, "%s/compile.sh", t.dir), NULL);
  char *lk = pkb_read_file(pki_sprintf(a, "%s/link.sh", t.dir), NULL);
  if (!cc || !lk) {
    free(cc);
    free(lk);
    return 0;
  }
  char out_abs[4096], dir_abs[4096]; /* the commands run in the probe's build directory */
  if (!realpath(o->outdir, out_abs) || !realpath(build_dir, dir_abs)) {
    free(cc);
    free(lk);
    return 0;
  }
  build_dir = dir_abs;
  const char *base = strrchr(so, '/');
  so = pki_sprintf(a, "%s/%s", out_abs, base ? base + 1 : so);
  const char *src = pki_sprintf(a, "'%s/%s.cpp'", out_abs, m->name);
  const char *obj = pki_sprintf(a, "'%s/%s.o'", build_dir, m->name);
  /* the module's build directory holds pkc_cache_key.h */
  char *ccmd = pki_sprintf(a, "%s -I'%s'", replace_all(a, replace_all(a, cc, "@SRC@", src),
                                                        "@OBJ@", obj), build_dir);
  for (char *nl = strchr(ccmd, '\n'); nl; nl = strchr(nl, '\n'))
    *nl = ' ';
  char *lcmd = replace_all(a, replace_all(a, lk, "@OBJ@", obj), "@SO@",
                           pki_sprintf(a, "'%s'", so));
  free(cc);
  free(lk);
  if (run_sh(ccmd, t.build, log, o->verbosity) != 0 ||
      run_sh(lcmd, t.build, log, o->verbosity) != 0) {
    pkb_show_errors(log);
    snprintf(err, errlen, "toolchain failure: building %s for backend '%s' failed (log: %s)",
             m->name, o->backend, log);
    return -1;
  }
  return 1;
}
