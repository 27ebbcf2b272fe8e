/*
 * frontend.h - Python source to pkc IR (prefix pkf_).
 *
 * Parses a file with tree-sitter's Python grammar, finds the annotated
 * entities (@pk.workunit, @pk.functor, @pk.function), and lowers them to the
 * IR of ir/ir.h: names resolved to pki_vars under C++ block scoping, type
 * annotations turned into pki_types, calls to device functions and builtins
 * resolved. Everything it cannot translate becomes a located diagnostic;
 * it never aborts on bad input. Host code outside annotated entities is
 * read only to type kernel parameters from their call sites, and to find
 * host lambdas and chains of launches (docs/DIALECT.md, sections 1.1, 2.2).
 */
#ifndef PKC_FRONTEND_H
#define PKC_FRONTEND_H

#include <stdio.h>

#include "../ir/ir.h"

/* The largest source file pkc reads (a kernel file is kilobytes; /dev/zero
 * or a runaway generated file would fill the memory). */
#define PKF_MAX_SOURCE_BYTES ((size_t)64 << 20)

/* Reads a whole file into a NUL-terminated malloc'd buffer (caller frees).
 * Returns 0, or -1 with errno set (EFBIG past PKF_MAX_SOURCE_BYTES). */
int pkf_read_file(const char *path, char **out, size_t *len);

/* Parses and lowers source (len bytes of path). Always returns a module
 * (possibly with no entities); diagnostics go to d, which must have been
 * initialised with the module's arena: use pkf_translate instead unless you
 * need the steps separately. */
pki_module *pkf_lower(const char *path, const char *source, size_t len,
                      pki_diags *d);

/* Reads path, lowers it and runs pki_check. On return *out_module owns the
 * IR and *d the diagnostics (in the module's arena). Returns the error count,
 * or -1 if the file cannot be read (a message is printed to err). */
int pkf_translate(const char *path, pki_module **out_module, pki_diags *d,
                  FILE *err);

/* A run-time specialization signature (`--specialize`, specialize.c):
 * kernel(name: type, ...) or kernel[R](...); types as the shim derives them
 * from a call, R the rank of the MDRangePolicy it was launched with (the
 * work-index count where the kernel's file has no launch of it). */
typedef struct pkf_spec {
  const char *kernel;
  const char **names;
  pki_type *types;
  int n;
  int rank; /* 0: from the file's call sites */
} pkf_spec;

/* Parses a signature into out (arena memory). Returns false with a message in
 * err and the 1-based column of the fault in *col. */
bool pkf_spec_parse(pki_arena *a, const char *text, pkf_spec *out, int *col, char *err,
                    size_t errlen);

/* One signature line of a sidecar file (<stem>.pkc-signatures). */
typedef struct pkf_sidecar_line {
  unsigned line;
  const char *text;
  pkf_spec spec;
} pkf_sidecar_line;

/* Parses sidecar text (len bytes, NULs included): the good signatures into
 * *out / *nout; each bad line is reported on diag (if not NULL) as
 * file:line:col. Blank lines and '#' comments are skipped. Returns the number
 * of bad lines. */
int pkf_sidecar_parse(pki_arena *a, const char *file, const char *text, size_t len,
                      pkf_sidecar_line **out, int *nout, FILE *diag);
/* Reads the sidecar at path into *text (arena) without blocking: 1 read, 0
 * absent, -1 with a located message in err (not a regular file, I/O error). */
int pkf_sidecar_read(pki_arena *a, const char *path, char **text, size_t *len, char *err,
                     size_t errlen);
/* The type the signature gives parameter param; false if none. */
bool pkf_spec_type(const pkf_spec *s, const char *param, pki_type *out);

/* Translation options. real: what pk.real means (PKI_F32 or PKI_F64; PKI_VOID
 * = PKI_F64), chosen at build time with `--real`. strict_types: a FunctionSty
 * parameter that static inference cannot type is an error (default: a note,
 * and the workunit is typed at run time). spec: the run-time specialization
 * being built (NULL: none). keep_going: partial builds (pki_select) -- after
 * errors in some entities, the rest is still checked. */
typedef struct pkf_options {
  pki_kind real;
  bool strict_types;
  bool keep_going;
  const pkf_spec *spec;
} pkf_options;

/* pkf_lower / pkf_translate with options (NULL = defaults). */
pki_module *pkf_lower_with(const char *path, const char *source, size_t len,
                           const pkf_options *o, pki_diags *d);
int pkf_translate_with(const char *path, const pkf_options *o, pki_module **out_module,
                       pki_diags *d, FILE *err);

/* The frontend's passes one at a time (pkf_translate_with runs them all;
 * cmd/pkc.c's translate() lists them, timing each with --time-passes):
 * pkf_parse builds the syntax tree, its index and reports syntax errors and
 * too deep nesting (d as for pkf_lower); pkf_lower_parsed collects the
 * entities and lowers them to the IR (nothing after syntax errors);
 * pkf_parsed_finish frees the tree and returns the module. */
typedef struct pkf_parsed pkf_parsed;
pkf_parsed *pkf_parse(const char *path, const char *source, size_t len, const pkf_options *o,
                      pki_diags *d);
void pkf_lower_parsed(pkf_parsed *ps);
pki_module *pkf_parsed_finish(pkf_parsed *ps);
/* m->abspath from path (left NULL if path cannot be resolved). */
void pkf_set_abspath(pki_module *m, const char *path);
/* pki_check of a lowered module: --specialize keeps one kernel; partial
 * builds (keep_going) select out the entities with errors, before and after. */
void pkf_select_check(pki_module *m, const pkf_options *o, pki_diags *d);

typedef enum pkf_diag_format {
  PKF_DIAG_TEXT, /* GCC style: file:line:col: error: msg, source line, caret */
  PKF_DIAG_JSON, /* one JSON object per file: {"file":..,"diagnostics":[..]} */
  PKF_DIAG_SARIF /* SARIF 2.1.0 log */
} pkf_diag_format;

/* Writes the diagnostics of several files in one document of the given
 * format (text: color only if color is true). */
void pkf_render_diags(FILE *out, const pki_diags *const *files, int nfiles,
                      pkf_diag_format fmt, bool color, const char *tool_version);

#endif /* PKC_FRONTEND_H */
