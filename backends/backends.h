/*
 * backends.h - IR to a buildable Kokkos project, and building it (prefix pkb_).
 *
 * pkb_emit writes, into opts->outdir: <name>.cpp (one functor per
 * kernel-holding entity, a tag and tagged operator() per workunit,
 * KOKKOS_INLINE_FUNCTION device functions, extern "C" wrappers and the module
 * descriptor of runtime-shim/pkc_abi.h), <name>.h (the wrappers' C
 * prototypes, for C/C++/Fortran hosts), pkc_abi.h, pkc_kokkos.hpp (the one
 * Kokkos-version compatibility and Python-semantics header) and a
 * CMakeLists.txt using find_package(Kokkos). The same sources serve every
 * backend. pkb_build then configures and builds with CMake into
 * <outdir>/build-<backend>/ and places <outdir>/<name>.<backend>.so, skipping
 * all work when the cache key (docs/ARCHITECTURE.md, "The cache key") is unchanged.
 */
#ifndef PKC_BACKENDS_H
#define PKC_BACKENDS_H

#include <stdbool.h>
#include <stdio.h>

#include "../ir/ir.h"

typedef struct pkb_options {
  const char *outdir;       /* e.g. "examples/nstream.pk" */
  const char *backend;      /* "serial" | "openmp" | "cuda" | "hip" */
  const char *kokkos_root;  /* install prefix with lib/cmake/Kokkos; NULL: CMake searches */
  const char *pkc_version;
  bool line_directives;     /* emit #line back to the Python source (default on) */
  int jobs;                 /* parallel compile jobs (0: number of cores) */
  int verbosity;            /* -1 quiet, 0 normal, 1 verbose */
  bool progress;            /* show progress (stderr is a terminal) */
  bool allow_warnings;      /* build even when the generated code draws compiler warnings */
  bool error_model_numpy;   /* integer // and % by zero give 0 instead of raising */
  bool bounds_check;        /* every View access checked against its extents (IndexError) */
} pkb_options;

/* Writes the generated sources. Returns 0, or -1 with a message in err. */
int pkb_emit(const pki_module *m, const pkb_options *o, char *err, size_t errlen);

/* Emits (if changed), then configures and builds the module. Returns 0 when
 * built or already up to date (same cache key, module present: no work at
 * all), -1 on a toolchain failure (cmake/compiler missing or failing, or a
 * Kokkos install without the backend) with a message in err and the tool's
 * output on stderr. */
int pkb_build(const pki_module *m, const pkb_options *o, char *err, size_t errlen);

/* The text of <name>.cpp as pkb_emit writes it (pkc annotate maps it back to
 * the source by its #line directives): malloc'd, NUL-terminated, never NULL. */
char *pkb_cpp_text(const pki_module *m, const pkb_options *o);

/* Path of the built module for a backend: <outdir>/<name>.<backend>.so (arena string). */
const char *pkb_module_path(pki_arena *a, const pki_module *m, const pkb_options *o);

/* Number of kernels m's module lists (workunits and @pk.main of its own; a
 * module of only run-time-typed workunits has none and compiles in no time). */
int pkb_module_kernels(const pki_module *m);

/* Output directory of a run-time specialization: <outdir>/spec/<kernel>-<h>,
 * h = the first 16 hex digits of SHA-256 over the signature text exactly as
 * given (the shim derives the same path from the same text). Arena string. */
const char *pkb_spec_outdir(pki_arena *a, const char *outdir, const char *kernel,
                            const char *signature);
/* Default Kokkos install for a backend: <deps>/kokkos-<backend> beside the
 * compiled-in default (<deps>/kokkos-openmp); serial and openmp share the
 * OpenMP+Serial install. Returns buf (cuda, hip: the path written into buf,
 * len bytes) or a constant string; never NULL. */
const char *pkb_default_kokkos_root(const char *backend, char *buf, size_t len);

#endif /* PKC_BACKENDS_H */
