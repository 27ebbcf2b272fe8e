/*
 * cmake.c - pkb_build: cache check, configure (only when needed) and build
 * with CMake, logs, key file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pkb_priv.h"

/* ------------------------------------------------------------ processes */

static bool on_path(const char *prog) {
  if (strchr(prog, '/'))
    return access(prog, X_OK) == 0;
  const char *path = getenv("PATH");
  if (!path)
    return false;
  char dir[4096];
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, ":");
    snprintf(dir, sizeof dir, "%.*s/%s", (int)n, p, prog);
    if (access(dir, X_OK) == 0)
      return true;
    p += n;
    if (*p == ':')
      p++;
  }
  return false;
}

/* Is line a compiler message located in the module's own code: the Python
 * source (through #line) or the generated <name>.cpp/.h? g++/clang write
 * "path:L:C: warning:", nvcc "path(L): warning". */
static bool in_generated_code(const pki_module *m, const char *line) {
  const char *py = strrchr(m->path, '/') ? strrchr(m->path, '/') + 1 : m->path;
  const char *names[] = {py, pki_sprintf(m->arena, "%s.cpp", m->name),
                         pki_sprintf(m->arena, "%s.h", m->name)};
  const char *end = strpbrk(line, ":(");
  if (!end)
    return false;
  const char *base = line;
  for (const char *q = line; q < end; q++)
    if (*q == '/')
      base = q + 1;
  for (int i = 0; i < 3; i++)
    if ((size_t)(end - base) == strlen(names[i]) && !strncmp(base, names[i], (size_t)(end - base)))
      return true;
  return false;
}

/* A compiler line `app.py:12:35: warning: ...` (a #line back to the Python
 * source) names the column of the C++, not of the Python: printed as
 * `app.py:12: warning: ...`. Other lines as they are. */
static void print_py_located(const char *line) {
  const char *py = strstr(line, ".py:");
  char *after;
  if (py) {
    long ln = strtol(py + 4, &after, 10);
    if (ln > 0 && *after == ':') {
      char *col_end;
      strtol(after + 1, &col_end, 10);
      if (col_end != after + 1 && *col_end == ':') {
        fprintf(stderr, "%.*s%s\n", (int)(after - line), line, col_end);
        return;
      }
    }
  }
  fprintf(stderr, "%s\n", line);
}

/* Prints the compiler warnings located in the module's code (a pkc bug:
 * accepted input must give warning-free C++) and returns how many. */
static int show_generated_warnings(const pki_module *m, const char *log) {
  char *text = pkb_read_file(log, NULL);
  if (!text)
    return 0;
  int n = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
    if (strstr(line, "warning") && in_generated_code(m, line)) {
      if (n++ < 20)
        print_py_located(line);
    }
  free(text);
  return n;
}

/* ------------------------------------------------------------ Kokkos installs */

const char *pkb_default_kokkos_root(const char *backend, char *buf, size_t len) {
  /* .deps/kokkos-<backend> beside the compiled-in default (…/.deps/kokkos-openmp) */
#ifdef PKC_DEFAULT_KOKKOS_ROOT
  static const char deflt[] = PKC_DEFAULT_KOKKOS_ROOT;
#else
  static const char deflt[] = ".deps/kokkos-openmp";
#endif
  if (strcmp(backend, "cuda") && strcmp(backend, "hip"))
    return deflt; /* serial and openmp: the OpenMP+Serial install */
  const char *slash = strrchr(deflt, '/');
  int dirlen = slash ? (int)(slash - deflt) : 0;
  snprintf(buf, len, "%.*s%skokkos-%s", dirlen, deflt, slash ? "/" : "", backend);
  return buf;
}

/* The KOKKOS_ENABLE_<BACKEND> line of <root>/include/KokkosCore_config.h:
 * 1 found, 0 absent, -1 no readable config (not a Kokkos install). */
static int kokkos_has_backend(const char *root, const char *backend, char *devices,
                              size_t devlen) {
  char path[4200];
  snprintf(path, sizeof path, "%s/include/KokkosCore_config.h", root);
  char *text = pkb_read_file(path, NULL);
  if (!text)
    return -1;
  const char *names[] = {"SERIAL", "OPENMP", "THREADS", "CUDA", "HIP", NULL};
  char want[64];
  snprintf(want, sizeof want, "%s", backend);
  for (char *c = want; *c; c++)
    *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
  int found = 0;
  devices[0] = 0;
  for (int i = 0; names[i]; i++) {
    char macro[64];
    snprintf(macro, sizeof macro, "#define KOKKOS_ENABLE_%s\n", names[i]);
    if (!strstr(text, macro))
      continue;
    size_t used = strlen(devices);
    snprintf(devices + used, devlen - used, "%s%s", used ? "," : "", names[i]);
    if (!strcmp(names[i], want))
      found = 1;
  }
  free(text);
  return found;
}

/* Fails (message in err) when the Kokkos install at o->kokkos_root lacks the backend. */
static int check_kokkos(const pkb_options *o, char *err, size_t errlen) {
  if (!o->kokkos_root)
    return 0; /* CMake searches; its configure step checks Kokkos_DEVICES */
  char devices[128];
  int has = kokkos_has_backend(o->kokkos_root, o->backend, devices, sizeof devices);
  if (has == 1)
    return 0;
  if (has < 0)
    snprintf(err, errlen, "backend '%s': no Kokkos install at %s (no include/KokkosCore_config.h);"
             " build one (scripts/setup.sh builds .deps/kokkos-%s) or pass --kokkos-root",
             o->backend, o->kokkos_root, !strcmp(o->backend, "serial") ? "openmp" : o->backend);
  else
    snprintf(err, errlen, "backend '%s': the Kokkos at %s was built without it (it has: %s);"
             " pass --kokkos-root of a Kokkos built with %s", o->backend, o->kokkos_root,
             devices[0] ? devices : "no backend", o->backend);
  return -1;
}

/* ------------------------------------------------------------ pkb_build */

typedef struct build_paths {
  char dir[4096], log[4200], stamp[4200], cache[4200], keyh[4200], keyfile[4200];
} build_paths;

static void make_paths(const pki_module *m, const pkb_options *o, build_paths *p) {
  snprintf(p->dir, sizeof p->dir, "%s/build-%s", o->outdir, o->backend);
  snprintf(p->log, sizeof p->log, "%s/pkc-build.log", p->dir);
  snprintf(p->stamp, sizeof p->stamp, "%s/pkc-configure.txt", p->dir);
  snprintf(p->cache, sizeof p->cache, "%s/CMakeCache.txt", p->dir);
  snprintf(p->keyh, sizeof p->keyh, "%s/pkc_cache_key.h", p->dir);
  snprintf(p->keyfile, sizeof p->keyfile, "%s/%s.%s.key", o->outdir, m->name, o->backend);
}

static const char *compiler_for(const pkb_options *o, pki_arena *a) {
  if (getenv("CXX") && *getenv("CXX"))
    return NULL; /* CMake takes CXX from the environment */
  if (!strcmp(o->backend, "cuda") && o->kokkos_root)
    return pki_sprintf(a, "%s/bin/nvcc_wrapper", o->kokkos_root);
  if (!strcmp(o->backend, "hip"))
    return "hipcc";
  return NULL;
}

static int configure(const pki_module *m, const pkb_options *o, build_paths *p,
                     char *err, size_t errlen) {
  pki_arena *a = m->arena;
  const char *cxx = compiler_for(o, a);
  const char *stamp = pki_sprintf(a, "root=%s\nCXX=%s\nCXXFLAGS=%s\ncompiler=%s\n",
                                  o->kokkos_root ? o->kokkos_root : "",
                                  getenv("CXX") ? getenv("CXX") : "",
                                  getenv("CXXFLAGS") ? getenv("CXXFLAGS") : "",
                                  cxx ? cxx : "");
  char *old = pkb_read_file(p->stamp, NULL);
  bool same = old && !strcmp(old, stamp);
  free(old);
  if (same && access(p->cache, F_OK) == 0)
    return 0;
  char *abs = realpath(o->outdir, NULL); /* the path CMake and make see */
  bool unsafe = strpbrk(abs ? abs : o->outdir, PKB_CMAKE_UNSAFE) != NULL;
  if (unsafe)
    snprintf(err, errlen, "CMake cannot build in %s: its path holds one of ; \" $ \\ ` or a "
             "newline (CMake splits lists at ';', expands $ and \\, make quotes \"); build "
             "into another directory with -o DIR", abs ? abs : o->outdir);
  free(abs);
  if (unsafe)
    return -1;
  /* a different toolchain: start from a clean build directory */
  char *rm[] = {"cmake", "-E", "remove_directory", p->dir, NULL};
  pkb_run_logged(rm, NULL, "/dev/null", o->verbosity);
  if (mkdir(p->dir, 0755) != 0 && errno != EEXIST) {
    snprintf(err, errlen, "cannot create %s: %s", p->dir, strerror(errno));
    return -1;
  }
  const char *argv[12];
  int n = 0;
  argv[n++] = "cmake";
  argv[n++] = "-S";
  argv[n++] = o->outdir;
  argv[n++] = "-B";
  argv[n++] = p->dir;
  argv[n++] = "-DCMAKE_BUILD_TYPE=Release";
  argv[n++] = pki_sprintf(a, "-DPKC_BACKEND=%s", o->backend);
  if (o->kokkos_root)
    argv[n++] = pki_sprintf(a, "-DKokkos_ROOT=%s", o->kokkos_root);
  if (cxx)
    argv[n++] = pki_sprintf(a, "-DCMAKE_CXX_COMPILER=%s", cxx);
  argv[n] = NULL;
  int rc = pkb_run_logged((char *const *)argv, NULL, p->log, o->verbosity);
  if (rc != 0) {
    pkb_show_errors(p->log);
    snprintf(err, errlen, "toolchain failure: CMake could not configure %s for backend '%s'"
             " (log: %s)", m->name, o->backend, p->log);
    return -1;
  }
  pkb_write_if_changed(p->stamp, stamp, strlen(stamp));
  return 0;
}

static int compile(const pki_module *m, const pkb_options *o, build_paths *p, char *err,
                   size_t errlen) {
  long jobs = o->jobs > 0 ? o->jobs : sysconf(_SC_NPROCESSORS_ONLN);
  if (jobs < 1)
    jobs = 1;
  char j[32];
  snprintf(j, sizeof j, "%ld", jobs);
  char *argv[] = {"cmake", "--build", p->dir, "-j", j, NULL};
  if (pkb_run_logged(argv, NULL, p->log, o->verbosity) != 0) {
    pkb_show_errors(p->log);
    snprintf(err, errlen, "toolchain failure: building %s for backend '%s' failed (log: %s)",
             m->name, o->backend, p->log);
    return -1;
  }
  return 0;
}

/* The cache key of the module's texts t (plus the support headers). */
static int texts_key(const pki_module *m, const pkb_options *o, const pkb_texts *t,
                     char key[65]) {
  pkb_buf all;
  pkb_buf_init(&all);
  pkb_put(&all, t->cpp.data);
  pkb_put(&all, t->h.data);
  pkb_put(&all, t->cmake.data);
  for (const char *names[] = {"pkc_kokkos.hpp", "pkc_dialect.hpp", "pkc_glue.hpp", "pkc_abi.h",
                             "dlpack/dlpack.h", NULL}, **q = names; *q; q++)
    pkb_put(&all, pkb_embedded(*q) ? pkb_embedded(*q) : "");
  int rc = pkb_cache_key(m, o, all.data, key);
  pkb_buf_free(&all);
  return rc;
}

static int build_texts(const pki_module *m, const pkb_options *o, pkb_texts *t,
                       char key[65], char *err, size_t errlen) {
  pkb_texts_make(m, o, t);
  if (pkb_texts_write(m, o, t, err, errlen) != 0)
    return -1;
  int rc = texts_key(m, o, t, key);
  if (rc != 0)
    snprintf(err, errlen, "cannot compute the cache key (OpenSSL SHA-256 failed)");
  return rc;
}

/* The key file, <outdir>/<name>.<backend>.key, one fact per line:
 *   1 the cache key (pkb_cache_key)
 *   2 the source's SHA-256 (the shim compares it with the file it runs)
 *   3 "inputs pkc=<path>|<size>|<mtime ns>\tCXX=...\tCXXFLAGS=...\tKokkos_ROOT=...\tcpu=..."
 *     (the environment the key depends on: where it differs, the shim lets
 *     pkc build decide again, as only it can compute the key; Kokkos_ROOT is
 *     the resolved Kokkos install the module was built against)
 *   4 "so <size> <sha256>" of the module (a damaged module is rebuilt, never loaded)
 * Arena string; NULL if the module cannot be read. */
static const char *key_text(const pki_module *m, const pkb_options *o, const char *key,
                            const char *so) {
  char src_sha[65], so_sha[65];
  if (pkb_sha256_hex(m->source, m->source_len, src_sha) != 0)
    src_sha[0] = 0;
  size_t len = 0;
  char *bytes = pkb_read_file(so, &len);
  if (!bytes || pkb_sha256_hex(bytes, len, so_sha) != 0) {
    free(bytes);
    return NULL;
  }
  free(bytes);
  char self[4096] = "";
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = 0;
  char *gone = strstr(self, " (deleted)"); /* pkc was replaced while it ran: name the new one */
  if (gone && !gone[strlen(" (deleted)")])
    *gone = 0;
  struct stat st = {0};
  stat(self, &st);
  const char *e[3] = {getenv("CXX") ? getenv("CXX") : "",
                      getenv("CXXFLAGS") ? getenv("CXXFLAGS") : "",
                      /* resolved (cmd/pkc.c: realpath), whether from --kokkos-root,
                       * Kokkos_ROOT or the default: the shim resolves Kokkos_ROOT alike */
                      o->kokkos_root ? o->kokkos_root : ""};
  char cpu[65];
  pkb_cpu_id(cpu);
  /* checks=bounds: built with --bounds-check, as the shim asks for with
   * PKC_BOUNDS_CHECK=1 (a run asking otherwise has pkc rebuild the module) */
  return pki_sprintf(m->arena, "%s\n%s\ninputs pkc=%s|%lld|%lld\tCXX=%s\tCXXFLAGS=%s\tKokkos_ROOT=%s"
                     "\tcpu=%.16s\tchecks=%s\nso %zu %s\n", key, src_sha, self, (long long)st.st_size,
                     (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec,
                     e[0], e[1], e[2], cpu, o->bounds_check ? "bounds" : "", len, so_sha);
}

/* Does the module at so match line 4 ("so <size> <sha256>") of key file text old? */
static bool module_intact(const char *old, const char *so) {
  const char *line = strstr(old, "\nso ");
  size_t want_len;
  char want[65];
  if (!line || sscanf(line + 4, "%zu %64s", &want_len, want) != 2)
    return false;
  size_t len = 0;
  char *bytes = pkb_read_file(so, &len);
  char got[65];
  bool ok = bytes && len == want_len && pkb_sha256_hex(bytes, len, got) == 0 &&
            !strcmp(got, want);
  free(bytes);
  return ok;
}

/* Is the module up to date: its key file holds the key of these texts and
 * vouches for the module's bytes? Reads only (a read-only directory holding
 * an up-to-date module builds nothing, so needs no lock); then the key's
 * environment line is refreshed where the directory allows. */
static bool up_to_date(const pki_module *m, const pkb_options *o) {
  pkb_texts t;
  pkb_texts_make(m, o, &t);
  char key[65], err[256];
  int rc = texts_key(m, o, &t, key);
  build_paths p;
  make_paths(m, o, &p);
  const char *so = pkb_module_path(m->arena, m, o);
  char *old = rc == 0 ? pkb_read_file(p.keyfile, NULL) : NULL;
  bool fresh = old && !strncmp(old, key, 64) && module_intact(old, so) &&
          pkb_texts_write(m, o, &t, err, sizeof err) == 0; /* writes nothing when unchanged */
  free(old);
  pkb_texts_free(&t);
  const char *text = fresh ? key_text(m, o, key, so) : NULL;
  if (text) /* the current environment, where writable */
    pkb_write_if_changed(p.keyfile, text, strlen(text));
  return fresh;
}

/* Seconds since *t0 (CLOCK_MONOTONIC). */
static double seconds_since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

static int build_locked(const pki_module *m, const pkb_options *o, char *err, size_t errlen) {
  pkb_texts t;
  char key[65];
  build_paths p;
  make_paths(m, o, &p);
  int rc = build_texts(m, o, &t, key, err, errlen);
  bool bare = t.bare;
  pkb_texts_free(&t);
  if (rc != 0)
    return -1;
  const char *so = pkb_module_path(m->arena, m, o);
  if (up_to_date(m, o)) /* another process built it while this one waited */
    return 0;
  if (check_kokkos(o, err, errlen) != 0)
    return -1;
  if (!on_path("cmake")) {
    snprintf(err, errlen, "toolchain failure: cmake not found on PATH");
    return -1;
  }
  if (pkb_mkdirs(p.dir) != 0) {
    snprintf(err, errlen, "cannot create %s: %s", p.dir, strerror(errno));
    return -1;
  }
  unlink(p.keyfile); /* a failed build leaves no key: the old module is stale */
  unlink(so);        /* and a damaged one is relinked, not taken as up to date */
  FILE *lf = fopen(p.log, "w");
  if (lf)
    fclose(lf);
  struct timespec t0, tc;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (o->progress || o->verbosity > 0)
    fprintf(stderr, "pkc: building %s.%s.so ...\n", m->name, o->backend);
  const char *keyh = pki_sprintf(m->arena, "#define PKC_CACHE_KEY \"%s\"\n", key);
  pkb_write_if_changed(p.keyh, keyh, strlen(keyh));
  /* the toolchain's captured commands (fastbuild.c), else the CMake project;
   * --error-model=numpy defines a macro before the support header, which the
   * precompiled one cannot know */
  clock_gettime(CLOCK_MONOTONIC, &tc);
  int fast = o->error_model_numpy ? 0 : pkb_fast_build(m, o, bare, p.dir, p.log, so, err, errlen);
  if (fast < 0)
    return -1;
  if (!fast) {
    if (configure(m, o, &p, err, errlen) != 0)
      return -1;
    pkb_write_if_changed(p.keyh, keyh, strlen(keyh));
    if (compile(m, o, &p, err, errlen) != 0)
      return -1;
  }
  double compile_s = seconds_since(&tc);
  int warnings = show_generated_warnings(m, p.log);
  if (warnings && !o->allow_warnings) {
    snprintf(err, errlen, "the generated C++ drew %d compiler warning%s (shown above; log: %s)."
             " That is a pkc bug: please report it with the file. `pkc build --allow-warnings`"
             " builds the module anyway", warnings, warnings == 1 ? "" : "s", p.log);
    return -1;
  }
  if (access(so, F_OK) != 0) {
    snprintf(err, errlen, "toolchain failure: the build did not produce %s", so);
    return -1;
  }
  const char *text = key_text(m, o, key, so);
  if (!text) {
    snprintf(err, errlen, "toolchain failure: cannot read the module %s it built", so);
    return -1;
  }
  pkb_write_if_changed(p.keyfile, text, strlen(text));
  if (o->progress || o->verbosity > 0)
    fprintf(stderr, "pkc: built %s (%.1f s; compile step %.1f s, %s)\n", so, seconds_since(&t0),
            compile_s, fast ? "cached toolchain" : "CMake");
  return 0;
}

/* Builds of one output directory run one at a time (every MPI rank, or every
 * process of a job, may start the same program and build the same module):
 * an exclusive lock on <outdir>/.pkc-lock; the waiting builds then find the
 * module fresh and do nothing. The lock goes with the process. */
int pkb_build(const pki_module *m, const pkb_options *o, char *err, size_t errlen) {
  if (up_to_date(m, o)) {
    if (o->verbosity > 0)
      fprintf(stderr, "pkc: up to date: %s\n", pkb_module_path(m->arena, m, o));
    return 0;
  }
  if (pkb_mkdirs(o->outdir) != 0) {
    snprintf(err, errlen, "cannot create %s: %s", o->outdir, strerror(errno));
    return -1;
  }
  char lock[4200];
  snprintf(lock, sizeof lock, "%s/.pkc-lock", o->outdir);
  int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || flock(fd, LOCK_EX) != 0) {
    snprintf(err, errlen, "cannot lock %s: %s (the module is missing or out of date, and "
             "building it needs a writable output directory: pass -o DIR)", lock, strerror(errno));
    if (fd >= 0)
      close(fd);
    return -1;
  }
  int rc = build_locked(m, o, err, errlen);
  close(fd); /* releases the lock */
  return rc;
}
