/*
 * options.h - pkc's command line (prefix pkc_).
 */
#ifndef PKC_CMD_OPTIONS_H
#define PKC_CMD_OPTIONS_H

#include <stdbool.h>

#include "../frontend/frontend.h"

/* Exit codes of every pkc command (docs/ARCHITECTURE.md, section 1). */
enum {
  PKC_EXIT_OK = 0,
  PKC_EXIT_INPUT = 1,     /* the input has errors */
  PKC_EXIT_USAGE = 2,     /* bad command line */
  PKC_EXIT_TOOLCHAIN = 3  /* cmake / compiler missing or failing */
};

typedef enum { PKC_CMD_NONE, PKC_CMD_CHECK, PKC_CMD_EMIT, PKC_CMD_IR, PKC_CMD_BUILD,
               PKC_CMD_ANNOTATE, PKC_CMD_HELP, PKC_CMD_VERSION } pkc_command;

typedef struct pkc_options {
  pkc_command command;
  const char **files; /* positional arguments (argv storage) */
  int nfiles;
  const char *outdir;      /* -o DIR (annotate: -o FILE.html) */
  const char *backend;     /* --backend */
  const char *kokkos_root; /* --kokkos-root */
  int jobs;                /* -j N */
  int verbosity;           /* -q: -1, -v: 1 */
  bool line_directives;    /* --no-line-directives clears it */
  pkf_diag_format format;  /* --diagnostics-format */
  const char *help_topic;  /* pkc help COMMAND */
  pki_kind real;           /* --real=float32|float64: what pk.real means */
  bool strict_types;       /* --strict-types: parameters left to run-time typing are errors */
  bool werror;             /* --werror: warnings count as errors */
  bool bounds_check;       /* --bounds-check (build/emit): View accesses checked */
  bool error_model_numpy;  /* --error-model=numpy (build/emit): no ZeroDivisionError check */
  bool allow_warnings;     /* --allow-warnings (build): keep a module whose C++ drew warnings */
  bool no_fusion;          /* --no-fusion (build/emit/ir): no fused kernels */
  bool fusion_report;      /* --fusion-report (check): every fusion candidate as a note */
  bool time_passes;        /* --time-passes: each pass's time on stderr */
  const char **specialize; /* --specialize SIG (repeatable; build/emit): only these */
  int nspecialize;
  const char **with_signature; /* --with-signature SIG (repeatable; build): built alongside
                                  the module when SIG's workunit is typed at run time */
  int nwith_signature;
} pkc_options;

/* Parses argv into o. Returns 0, or PKC_EXIT_USAGE after printing the
 * problem and a hint to stderr. o->files points into argv. */
int pkc_parse_options(int argc, char **argv, pkc_options *o);

/* Prints the help of one command (or the overview for NULL) to stdout;
 * returns PKC_EXIT_USAGE for an unknown topic. */
int pkc_print_help(const char *topic);

#endif /* PKC_CMD_OPTIONS_H */
