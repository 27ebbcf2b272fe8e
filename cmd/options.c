/*
 * options.c - parsing pkc's command line and printing its help.
 */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name;
  pkc_command cmd;
  const char *usage;
  const char *help;
} commands[] = {
    {"check", PKC_CMD_CHECK,
     "pkc check [--diagnostics-format=text|json|sarif] [--real=float32|float64]\n"
     "          [--strict-types] [--werror] [--fusion-report] FILE...",
     "Parses and type-checks every annotated entity of each FILE and prints\n"
     "diagnostics; builds nothing. Exit 0 clean, 1 input errors, 2 usage errors.\n"
     "--fusion-report adds a note (code fusion) per candidate chain of kernels\n"
     "in @pk.main: fused, or the rule, View, kernels and lines that prevent it.\n"
     "Workunit parameters whose types only a call can tell are notes (they are\n"
     "typed at run time); --strict-types makes them errors. --werror makes\n"
     "warnings (e.g. implicit-conversion) errors."},
    {"emit", PKC_CMD_EMIT, "pkc emit FILE [-o DIR] [--no-line-directives] [--no-fusion]",
     "Writes the generated C++ (FILE.pk/<name>.cpp), its C ABI header, the\n"
     "support headers and CMakeLists.txt without compiling. Fused kernels\n"
     "(chains of dispatches in @pk.main) carry a comment naming their chain;\n"
     "--no-fusion leaves them out."},
    {"ir", PKC_CMD_IR, "pkc ir FILE", "Prints the typed kernel IR of FILE in pkc's stable text form."},
    {"build", PKC_CMD_BUILD,
     "pkc build FILE [-o DIR] [--backend serial|openmp|cuda|hip] [--kokkos-root DIR] [-j N]\n"
     "          [--specialize 'kernel(x: pk.View1D[pk.float32], n: int)'] [--no-fusion]\n"
     "          [--with-signature SIG]...\n"
     "          [--bounds-check] [--error-model=python|numpy] [--allow-warnings]",
     "Emits and builds FILE's module (DIR/<name>.<backend>.so, DIR defaults to\n"
     "FILE.pk beside FILE) with CMake against Kokkos. Does nothing when the\n"
     "cache key (source, pkc, backend, Kokkos, compiler, flags) is unchanged.\n"
     "Kokkos: --kokkos-root, else $Kokkos_ROOT, else the one pkc was built with.\n"
     "--real=float32|float64 chooses what pk.real means (default float64).\n"
     "Entities with errors are left out (their diagnostics printed, exit 1);\n"
     "calling one of their kernels raises its diagnostic at run time.\n"
     "Workunits typed at run time are built per signature: each signature\n"
     "recorded in FILE's sidecar (<stem>.pkc-signatures, written by a run with\n"
     "PKC_RECORD_SIGNATURES=1) is built too, into DIR/spec/<kernel>-<hash>/;\n"
     "--specialize SIG builds only that one signature. --with-signature SIG\n"
     "(repeatable) builds SIG alongside the module, in parallel (-j), when its\n"
     "workunit is typed at run time (else it is skipped); a failing one is\n"
     "skipped quietly (the shim builds it again, with its errors, when it is\n"
     "called). The shim passes the first call's signature and those it predicts.\n"
     "--no-fusion builds no fused kernels (PKC_FUSION=0 at run time skips them).\n"
     "Integer // and % by zero raise ZeroDivisionError, range() with step 0\n"
     "ValueError after the launch on host backends (Python's rules);\n"
     "--error-model=numpy gives 0 and raises nothing, as NumPy does.\n"
     "--bounds-check checks every View access: one past the extent raises\n"
     "IndexError naming kernel, View, index and line after the launch (host\n"
     "backends; GPU kernels abort). PKC_BOUNDS_CHECK=1 makes the shim build so.\n"
     "A compiler warning in the generated code is a pkc bug: the build shows it\n"
     "and fails (exit 3); --allow-warnings keeps the module anyway."},
    {"annotate", PKC_CMD_ANNOTATE, "pkc annotate FILE [-o FILE.html] [--real=float32|float64]",
     "Writes one self-contained HTML page (FILE.html beside FILE by default)\n"
     "showing FILE line by line, as `cython -a` does: a line marked + opens\n"
     "to the C++ it became (the generated code after its #line directives);\n"
     "kernels are coloured by pattern (for, reduce, scan, @pk.main); the\n"
     "diagnostics of `pkc check --fusion-report` stand under their lines.\n"
     "Entities with errors have no C++. Exit 0 clean, 1 input errors (the\n"
     "page is still written), 2 usage errors, 3 the page cannot be written."},
    {"help", PKC_CMD_HELP, "pkc help [COMMAND]", "Shows help for pkc or one command."},
};

int pkc_print_help(const char *topic) {
  if (!topic) {
    printf("pkc %s - ahead-of-time compiler for PyKokkos kernels\n\nusage:\n", PKC_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
      printf("  %s\n", commands[i].usage);
    printf("  pkc --version\n\n"
           "options: -q quiet, -v verbose, -o DIR output directory, -j N parallel jobs\n"
           "Run 'pkc help COMMAND' for more.\n");
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (strcmp(topic, commands[i].name) == 0) {
      printf("usage: %s\n\n%s\n", commands[i].usage, commands[i].help);
      return 0;
    }
  fprintf(stderr, "pkc: unknown command '%s'; run 'pkc help' for the list\n", topic);
  return PKC_EXIT_USAGE;
}

static int usage_error(const char *fmt, const char *arg) {
  fputs("pkc: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nRun 'pkc help' for usage.\n", stderr);
  return PKC_EXIT_USAGE;
}

/* Value of an option given as "--opt=value" or "--opt value"; NULL if missing. */
static const char *option_value(const char *arg, const char *name, int argc, char **argv,
                                int *i, bool *matched) {
  size_t n = strlen(name);
  *matched = false;
  if (strncmp(arg, name, n) != 0)
    return NULL;
  if (arg[n] == '=') {
    *matched = true;
    return arg + n + 1;
  }
  if (name[1] != '-' && arg[n] != 0) { /* short options also as -j2, -oDIR (make, cc) */
    *matched = true;
    return arg + n;
  }
  if (arg[n] != 0)
    return NULL;
  *matched = true;
  return *i + 1 < argc ? argv[++*i] : NULL;
}

static int parse_format(const char *v, pkf_diag_format *f) {
  if (strcmp(v, "text") == 0)
    *f = PKF_DIAG_TEXT;
  else if (strcmp(v, "json") == 0)
    *f = PKF_DIAG_JSON;
  else if (strcmp(v, "sarif") == 0)
    *f = PKF_DIAG_SARIF;
  else
    return usage_error("unknown diagnostics format '%s' (use text, json or sarif)", v);
  return 0;
}

static int parse_valued(pkc_options *o, const char *a, int argc, char **argv, int *i,
                        bool *matched) {
  static const char *const names[] = {"--backend", "--kokkos-root", "--diagnostics-format",
                                      "-o", "--real", "-j", "--specialize", "--error-model",
                                      "--with-signature"};
  for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
    const char *v = option_value(a, names[k], argc, argv, i, matched);
    if (!*matched)
      continue;
    if (!v)
      return usage_error("option '%s' needs a value", names[k]);
    switch (k) {
    case 0:
      if (strcmp(v, "serial") && strcmp(v, "openmp") && strcmp(v, "cuda") && strcmp(v, "hip"))
        return usage_error("unknown backend '%s' (use serial, openmp, cuda or hip)", v);
      o->backend = v;
      return 0;
    case 1: o->kokkos_root = v; return 0;
    case 2: return parse_format(v, &o->format);
    case 3: o->outdir = v; return 0;
    case 4:
      if (strcmp(v, "float32") == 0 || strcmp(v, "float") == 0)
        o->real = PKI_F32;
      else if (strcmp(v, "float64") == 0 || strcmp(v, "double") == 0)
        o->real = PKI_F64;
      else
        return usage_error("unknown --real precision '%s' (use float32 or float64)", v);
      return 0;
    case 6:
      o->specialize[o->nspecialize++] = v;
      return 0;
    case 8:
      o->with_signature[o->nwith_signature++] = v;
      return 0;
    case 7:
      if (strcmp(v, "python") && strcmp(v, "numpy"))
        return usage_error("unknown --error-model '%s' (use python or numpy)", v);
      o->error_model_numpy = !strcmp(v, "numpy");
      return 0;
    default: {
      char *end;
      long j = strtol(v, &end, 10);
      if (*end || j < 1 || j > 1024)
        return usage_error("-j needs a positive number, got '%s'", v);
      o->jobs = (int)j;
      return 0;
    }
    }
  }
  return 0;
}

int pkc_parse_options(int argc, char **argv, pkc_options *o) {
  memset(o, 0, sizeof *o);
  o->line_directives = true;
  o->backend = "openmp";
  o->files = (const char **)calloc((size_t)argc + 1, sizeof(char *));
  o->specialize = (const char **)calloc((size_t)argc + 1, sizeof(char *));
  o->with_signature = (const char **)calloc((size_t)argc + 1, sizeof(char *));
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool matched;
    int rc = parse_valued(o, a, argc, argv, &i, &matched);
    if (rc)
      return rc;
    if (matched)
      continue;
    if (strcmp(a, "--version") == 0)
      o->command = PKC_CMD_VERSION;
    else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
      o->command = PKC_CMD_HELP;
    else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
      o->verbosity = -1;
    else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)
      o->verbosity = 1;
    else if (strcmp(a, "--strict-types") == 0)
      o->strict_types = true;
    else if (strcmp(a, "--werror") == 0)
      o->werror = true;
    else if (strcmp(a, "--bounds-check") == 0)
      o->bounds_check = true;
    else if (strcmp(a, "--allow-warnings") == 0)
      o->allow_warnings = true;
    else if (strcmp(a, "--no-fusion") == 0)
      o->no_fusion = true;
    else if (strcmp(a, "--fusion-report") == 0)
      o->fusion_report = true;
    else if (strcmp(a, "--no-line-directives") == 0)
      o->line_directives = false;
    else if (strcmp(a, "--line-directives") == 0)
      o->line_directives = true;
    else if (a[0] == '-' && a[1])
      return usage_error("unknown option '%s'", a);
    else if (o->command == PKC_CMD_NONE) {
      size_t k;
      for (k = 0; k < sizeof commands / sizeof *commands; k++)
        if (strcmp(a, commands[k].name) == 0)
          break;
      if (k == sizeof commands / sizeof *commands)
        return usage_error("unknown command '%s' (commands: check, emit, ir, build, annotate, "
                           "help)", a);
      o->command = commands[k].cmd;
    } else if (o->command == PKC_CMD_HELP && !o->help_topic)
      o->help_topic = a;
    else
      o->files[o->nfiles++] = a;
  }
  if (o->command == PKC_CMD_NONE)
    return usage_error("%s", "no command given (commands: check, emit, ir, build, annotate, help)");
  bool needs_files = o->command == PKC_CMD_CHECK || o->command == PKC_CMD_EMIT ||
                     o->command == PKC_CMD_IR || o->command == PKC_CMD_BUILD ||
                     o->command == PKC_CMD_ANNOTATE;
  if (needs_files && o->nfiles == 0)
    return usage_error("%s", "no input file given");
  if ((o->command == PKC_CMD_EMIT || o->command == PKC_CMD_IR || o->command == PKC_CMD_BUILD) &&
      o->nfiles > 1 && o->outdir)
    return usage_error("%s", "-o DIR takes one input file");
  if (o->command == PKC_CMD_ANNOTATE && o->nfiles > 1 && o->outdir)
    return usage_error("%s", "-o FILE.html takes one input file");
  if (o->nspecialize && ((o->command != PKC_CMD_BUILD && o->command != PKC_CMD_EMIT) ||
                         o->nfiles != 1))
    return usage_error("%s", "--specialize goes with 'pkc build' or 'pkc emit' of one file");
  if (o->nwith_signature && (o->command != PKC_CMD_BUILD || o->nfiles != 1 || o->nspecialize))
    return usage_error("%s", "--with-signature goes with 'pkc build' of one file, without "
                       "--specialize");
  return 0;
}
