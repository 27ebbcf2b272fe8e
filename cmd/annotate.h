/*
 * annotate.h - `pkc annotate`: a Python file as one self-contained HTML page
 * (prefix pkc_), as `cython -a` does for Cython: every source line with its
 * number, the C++ each line became (from the generated code's #line
 * directives) behind a click, the kernels coloured by pattern, and the
 * diagnostics of `pkc check --fusion-report` under their lines.
 */
#ifndef PKC_CMD_ANNOTATE_H
#define PKC_CMD_ANNOTATE_H

#include <stddef.h>

#include "../backends/backends.h"
#include "../ir/ir.h"

/* What one page shows. */
typedef struct pkc_annotation {
  const char *path;          /* the .py as named on the command line */
  const pki_module *checked; /* translated as `pkc check`: source, kernels */
  const pki_diags *diags;    /* its diagnostics, fusion notes included */
  const pki_module *emitted; /* translated as `pkc emit` (entities with errors
                                left out): the C++; NULL: none */
  const pkb_options *bo;     /* how the C++ is generated (line directives on) */
  const char *version;       /* pkc's */
} pkc_annotation;

/* Writes the page of a to the file out. Returns 0, or -1 with a message in err. */
int pkc_annotate(const pkc_annotation *a, const char *out, char *err, size_t errlen);

/* Default page for a source path: FILE.html beside FILE (".py" dropped); malloc'd. */
char *pkc_annotate_default_path(const char *path);

#endif /* PKC_CMD_ANNOTATE_H */
