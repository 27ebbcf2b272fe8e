/*
 * emit_test_util.h - helpers shared by the Kokkos backend tests (test_emit*.c):
 * a per-run temp dir (cmocka group setup/teardown), file reading, pkb options
 * for OpenMP, pkb_build with a warning check, dlopen of the module, DLTensor
 * and policy construction. Define EMIT_TMP_TEMPLATE (a mkdtemp template)
 * before including; include after <cmocka.h>.
 */
#ifndef PKC_EMIT_TEST_UTIL_H
#define PKC_EMIT_TEST_UTIL_H

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends.h"
#include "pkc_abi.h"

#ifndef PKC_DEFAULT_KOKKOS_ROOT
#define PKC_DEFAULT_KOKKOS_ROOT "/work/main/.deps/kokkos-openmp"
#endif

/* The file's whole contents, NUL-terminated (caller frees), or NULL if unreadable. */
static inline char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = calloc(1, (size_t)n + 1);
  if (fread(p, 1, (size_t)n, f) != (size_t)n)
    n = 0;
  fclose(f);
  return p;
}

/* The test run's temp dir, made by setup_dir from EMIT_TMP_TEMPLATE. */
static char tmpdir[256];

/* cmocka group setup: creates tmpdir. */
static inline int setup_dir(void **state) {
  (void)state;
  snprintf(tmpdir, sizeof tmpdir, "%s", EMIT_TMP_TEMPLATE);
  return mkdtemp(tmpdir) ? 0 : -1;
}

/* cmocka group teardown: removes tmpdir unless PKC_KEEP_TEST_DIRS is set. */
static inline int remove_dir(void **state) {
  (void)state;
  char cmd[400];
  if (!getenv("PKC_KEEP_TEST_DIRS")) {
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
  }
  return 0;
}

/* pkb options for an OpenMP build into outdir with the default Kokkos, quiet. */
static inline pkb_options opts(const char *outdir) {
  pkb_options o = {.outdir = outdir, .backend = "openmp",
                   .kokkos_root = PKC_DEFAULT_KOKKOS_ROOT, .pkc_version = "0.1.0",
                   .line_directives = true, .jobs = 2, .verbosity = -1};
  return o;
}

/* Emits m (OpenMP) into tmpdir/dir and returns the text of file there
 * (malloc'ed; the caller frees it). */
static inline char *emitted(pki_module *m, const char *dir, const char *file) {
  char out[400], err[512], path[600];
  snprintf(out, sizeof out, "%s/%s", tmpdir, dir);
  pkb_options o = opts(out);
  assert_int_equal(pkb_emit(m, &o, err, sizeof err), 0);
  snprintf(path, sizeof path, "%s/%s", out, file);
  return slurp(path);
}

/* Fails the test unless `needle` occurs in the generated `text`. */
#define HAS(text, needle)                                                    \
  do {                                                                       \
    if (!strstr(text, needle))                                               \
      fail_msg("generated code lacks: %s", needle);                          \
  } while (0)

/* Whether the default (OpenMP) Kokkos install is present; tests skip() without it. */
static inline bool have_kokkos(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/lib/cmake/Kokkos/KokkosConfig.cmake", PKC_DEFAULT_KOKKOS_ROOT);
  return access(path, R_OK) == 0;
}

/* Fails the test unless g++ vectorizes the loop `after` lines below the
 * comment `marker` in the pkc_dialect.hpp that pkb_emit wrote into dir, when
 * it compiles dir/t.cpp as the module's CMake build does (Release, OpenMP,
 * -march=native; -fopt-info-vec-optimized). */
static inline void assert_loop_vectorized(const char *dir, const char *marker, int after) {
  char path[600], cmd[2048];
  snprintf(path, sizeof path, "%s/pkc_dialect.hpp", dir);
  char *hpp = slurp(path);
  assert_non_null(hpp);
  const char *mark = strstr(hpp, marker);
  if (!mark)
    fail_msg("pkc_dialect.hpp has no '%s'", marker);
  int line = 1 + after;
  for (const char *p = hpp; p < mark; p++)
    line += *p == '\n';
  free(hpp);
  snprintf(cmd, sizeof cmd,
           "cd '%s' && c++ -std=c++17 -O3 -DNDEBUG -march=native -ffp-contract=off -fopenmp "
           "-DPKC_BACKEND_OPENMP -I. -I'%s/include' -fopt-info-vec-optimized -c t.cpp "
           "-o t.o 2> vec.log",
           dir, PKC_DEFAULT_KOKKOS_ROOT);
  snprintf(path, sizeof path, "%s/vec.log", dir);
  int rc = system(cmd);
  char *log = slurp(path);
  if (rc != 0)
    fail_msg("compiling t.cpp failed:\n%s", log ? log : "(no log)");
  assert_non_null(log);
  char want[96];
  snprintf(want, sizeof want, "pkc_dialect.hpp:%d:", line);
  bool vectorized = false;
  for (const char *p = strstr(log, want); p && !vectorized; p = strstr(p + 1, want)) {
    const char *eol = strchr(p, '\n');
    const char *v = strstr(p, "optimized: loop vectorized");
    vectorized = v && (!eol || v < eol);
  }
  if (!vectorized)
    fail_msg("g++ did not vectorize the loop at pkc_dialect.hpp:%d:\n%s", line, log);
  free(log);
}

/* Writes source to dir/name.cpp (beside the pkc_kokkos.hpp that pkb_emit
 * wrote there), compiles it for Kokkos Serial, runs it and returns its
 * standard output (the caller frees it); fails the test if it does not build. */
static inline char *run_host_program(const char *dir, const char *name, const char *source) {
  char path[600], cmd[2048];
  snprintf(path, sizeof path, "%s/%s.cpp", dir, name);
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fputs(source, fp);
  fclose(fp);
  snprintf(cmd, sizeof cmd,
           "cd '%s' && c++ -std=c++17 -O1 -fopenmp -DPKC_BACKEND_SERIAL -I. -I'%s/include' "
           "%s.cpp -o %s -L'%s/lib' -Wl,-rpath,'%s/lib' -lkokkoscore -ldl > %s.log 2>&1 "
           "&& ./%s > %s.out",
           dir, PKC_DEFAULT_KOKKOS_ROOT, name, name, PKC_DEFAULT_KOKKOS_ROOT,
           PKC_DEFAULT_KOKKOS_ROOT, name, name, name);
  if (system(cmd) != 0) {
    snprintf(path, sizeof path, "%s/%s.log", dir, name);
    char *log = slurp(path);
    fail_msg("compiling %s.cpp failed:\n%s", name, log ? log : "(no log)");
  }
  snprintf(path, sizeof path, "%s/%s.out", dir, name);
  char *out = slurp(path);
  assert_non_null(out);
  return out;
}

/* pkb_build of m with o; fails the test on a build error (err says why) or
 * on a "warning" in the backend's build log (-Wall -Wextra are on). */
static inline void build_warning_free(pki_module *m, const pkb_options *o, char *err,
                                      size_t errlen) {
  char path[400];
  if (pkb_build(m, o, err, errlen) != 0)
    fail_msg("pkb_build: %s", err);
  snprintf(path, sizeof path, "%s/build-%s/pkc-build.log", o->outdir, o->backend);
  char *log = slurp(path);
  assert_non_null(log);
  if (strstr(log, "warning"))
    fail_msg("the generated code compiles with warnings:\n%s", log);
  free(log);
}

/* dlopen's the built module `so` (RTLD_NOW | RTLD_LOCAL) and returns its
 * descriptor; *handle gets the handle for dlclose. Fails the test on error. */
static inline const pkc_module_desc *open_module(const char *so, void **handle) {
  void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    fail_msg("dlopen: %s", dlerror());
  pkc_module_fn entry = (pkc_module_fn)(uintptr_t)dlsym(h, PKC_MODULE_SYMBOL);
  assert_non_null(entry);
  *handle = h;
  return entry();
}

/* A host (kDLCPU) DLTensor over data with ndim extents `shape`, dtype code/bits. */
static inline DLTensor tensor(void *data, int64_t *shape, int ndim, DLDataTypeCode code,
                              int bits) {
  DLTensor t = {0};
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = ndim;
  t.dtype.code = (uint8_t)code;
  t.dtype.bits = (uint8_t)bits;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

/* The kernel of descriptor d called `name`; fails the test if there is none. */
static inline const pkc_kernel_desc *kernel(const pkc_module_desc *d, const char *name) {
  for (int k = 0; k < d->nkernels; k++)
    if (!strcmp(d->kernels[k].name, name))
      return &d->kernels[k];
  fail_msg("no kernel %s", name);
  return NULL;
}

/* A 1-D RangePolicy over [0, n). */
static inline pkc_policy range(int64_t n) {
  pkc_policy p = {0};
  p.kind = PKC_POLICY_RANGE;
  p.rank = 1;
  p.end[0] = n;
  return p;
}

#endif /* PKC_EMIT_TEST_UTIL_H */
