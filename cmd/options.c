/*
 * options.c - parsing pkc's command line and printing its help.
 */
#include "options.h"

#include <getopt.h>
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

/* The environment pkc and its runtime (the pykokkos shim, libpkcrt) read:
 * `pkc help environment` prints it and scripts/man.sh makes the man page's
 * ENVIRONMENT section from that output (one table, one source). */
/* An entry of the help tables: a name, then its text (lines of at most 80
 * columns once indented by 4). */
typedef struct help_entry {
  const char *name, *help;
} help_entry;

static const help_entry environment[] = {
    {"PKC", "The pkc executable the shim runs to build a module that is missing or\n"
            "stale (default: pkc on PATH)."},
    {"PKC_BACKEND", "serial, openmp, cuda or hip: the backend whose modules the shim loads\n"
                    "and builds (wins over pk.set_default_space; default openmp)."},
    {"PKC_REAL", "float32 or float64: what pk.real means; the shim builds with --real."},
    {"PKC_BOUNDS_CHECK", "1: the shim builds modules with --bounds-check."},
    {"PKC_NUM_THREADS", "Host threads Kokkos starts with (unset or 0: OMP_NUM_THREADS, else\n"
                        "Kokkos' default)."},
    {"PKC_FUSION", "0: launches run one by one, never as fused kernels (the shim and\n"
                   "@pk.main); all: every fused variant is used everywhere."},
    {"PKC_FUSION_VERBOSE", "1: the shim prints each chain of launches it fuses."},
    {"PKC_GRAPH_BRANCHES", "0: pk.Graph captures a step's launches in the order they are made\n"
                           "(default: a launch waits only for those whose Views' elements it\n"
                           "shares, the others run as parallel branches of the CUDA graph)."},
    {"PKC_GRAPH_URGENT", "0: pk.Graph gives no kernel of a captured step the greatest priority\n"
                         "(default: a halo's regions and those that wait for them, the work\n"
                         "on the faces' path, go ahead of an update on another branch)."},
    {"PKC_GRAPH_GATE", "0: pk.Graph never runs a launch beside the halo exchange it reads the\n"
                       "ghosts of (default: on CUDA with NVSHMEM, the points that read\n"
                       "ghosts wait in the kernel for the exchange, the others run at once)."},
    {"PKC_GRAPH_SEND", "0: in a pk.Graph of several steps every halo exchange() is whole\n"
                       "(default: on CUDA with NVSHMEM's direct exchange, those after a\n"
                       "graph's first only send, and the readers of the ghosts wait for\n"
                       "the count the neighbours raise)."},
    {"PKC_GRAPH_LAUNCH_ORDER", "1: in a captured pk.Graph step the kernel beside a Halo.start\n"
                               "launches once the exchange kernel's blocks have all begun\n"
                               "(CUDA >= 12.3, compute capability >= 9.0; default: as its\n"
                               "edges say)."},
    {"PKC_FASTCALL", "0: the shim calls kernels through ctypes, not its C extension\n"
                     "(_fastcall, built beside libpkcrt.so)."},
    {"PKC_RECORD_SIGNATURES", "1: each argument signature a run-time typed workunit is called\n"
                              "with is appended to FILE's sidecar <stem>.pkc-signatures, which\n"
                              "pkc build then builds ahead of time."},
    {"PKC_RUNTIME_LIB", "The libpkcrt.so the shim loads (default: beside the shim, or\n"
                        "<pkc's prefix>/lib)."},
    {"PKC_CACHE_DIR", "pkc's cache of prepared toolchains for fast builds (default\n"
                      "$XDG_CACHE_HOME/pkc, else ~/.cache/pkc)."},
    {"PKC_FAST_BUILD", "0: every host build runs CMake (no cached toolchain); GPU backends\n"
                       "always build with CMake."},
    {"PKC_HALO_NCCL", "0: pykokkos.mpi halo exchanges on CUDA go through host memory\n"
                      "instead of NCCL."},
    {"PKC_HALO_TRANSPORT", "The default transport of pykokkos.mpi.Halo: auto (NCCL on CUDA\n"
                           "where available, else MPI), nccl, nvshmem or mpi."},
    {"PKC_HALO_NVSHMEM_P2P", "0: the nvshmem transport sends faces with put-with-signal even\n"
                             "where the neighbour's GPU memory can be stored to directly."},
    {"PKC_HALO_NVSHMEM_FUSED", "0: the nvshmem transport's exchange() runs separate flag,\n"
                               "packing and unpacking kernels instead of one fused kernel."},
    {"PKC_HALO_NVSHMEM_DIRECT", "0: the nvshmem transport's fused exchange stores faces into the\n"
                                "neighbours' receive buffers instead of straight into their Views\n"
                                "(mapped by CUDA IPC)."},
    {"PKC_HALO_NVSHMEM_BLOCKS", "The most thread blocks of the nvshmem transport's fused exchange\n"
                                "kernel (default 0: an eighth of the GPU's SMs)."},
    {"PKC_HALO_NVSHMEM_SEND_BLOCKS", "The most thread blocks of a send-only exchange's kernel\n"
                                     "(pk.Graph; default 0: an eighth of the GPU's SMs)."},
    {"PKC_NVSHMEM_HOME", "NVSHMEM (include/, lib/) for the nvshmem transport (default: the\n"
                         "nvidia-nvshmem Python package)."},
    {"Kokkos_ROOT", "The Kokkos installation pkc build uses when --kokkos-root is not given\n"
                    "(else the one pkc was built with)."},
    {"CXX, CXXFLAGS, LDFLAGS", "The C++ compiler and flags of builds (part of the cache key)."},
    {"XDG_CACHE_HOME, HOME", "Where PKC_CACHE_DIR defaults to."},
};

/* Exit statuses (the PKC_EXIT_* values): `pkc help exit-status`. */
_Static_assert(PKC_EXIT_OK == 0 && PKC_EXIT_INPUT == 1 && PKC_EXIT_USAGE == 2 &&
                   PKC_EXIT_TOOLCHAIN == 3, "exit_statuses[] names the PKC_EXIT_* values");
static const help_entry exit_statuses[] = {
    {"0", "Success: no errors (warnings and notes may have been printed)."},
    {"1", "The input has errors: their diagnostics are printed; pkc build still\n"
                     "builds the entities without errors."},
    {"2", "Bad command line (unknown command or option, missing file)."},
    {"3", "CMake or the C++ compiler is missing or failed, or a file cannot be\n"
                         "written."},
};

/* The files pkc reads and writes: `pkc help files`. */
static const help_entry files[] = {
    {"FILE.pk/", "The build directory beside FILE (pkc build -o DIR to choose another)."},
    {"FILE.pk/<stem>.<backend>.so", "The module of FILE for one backend, loaded by the shim."},
    {"FILE.pk/<stem>.<backend>.key", "Its cache key: the module is rebuilt when the key changes."},
    {"FILE.pk/<stem>.cpp, <stem>.h", "The generated C++ and its C ABI header (pkc emit)."},
    {"FILE.pk/spec/<kernel>-<hash>/", "Modules of the run-time typed signatures of a workunit."},
    {"<stem>.pkc-signatures", "FILE's sidecar: recorded signatures (PKC_RECORD_SIGNATURES=1)."},
    {"FILE.html", "The page pkc annotate writes."},
    {"$PKC_CACHE_DIR/toolchains/", "Prepared toolchains of fast builds, one per compiler,\n"
                                   "Kokkos and flags."},
};

/* Prints table t: each entry's name, then its text indented by 4. */
static void print_entries(const help_entry *t, size_t n) {
  for (size_t i = 0; i < n; i++) {
    printf("%s\n", t[i].name);
    for (const char *p = t[i].help; *p;) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p) : strlen(p);
      printf("    %.*s\n", (int)len, p);
      p += len + (nl != NULL);
    }
  }
}

#define PRINT_TABLE(t) print_entries(t, sizeof t / sizeof *t)

/* Prints one table topic of `pkc help` (environment, exit-status, files);
 * false if topic is none of them. */
static bool print_table(const char *topic) {
  if (!strcmp(topic, "environment"))
    PRINT_TABLE(environment);
  else if (!strcmp(topic, "exit-status"))
    PRINT_TABLE(exit_statuses);
  else if (!strcmp(topic, "files"))
    PRINT_TABLE(files);
  else
    return false;
  return true;
}

int pkc_print_help(const char *topic) {
  if (!topic) {
    printf("pkc %s - ahead-of-time compiler for PyKokkos kernels\n\nusage:\n", PKC_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
      printf("  %s\n", commands[i].usage);
    printf("  pkc --version\n\n"
           "options: -q quiet, -v verbose, -o DIR output directory, -j N parallel jobs,\n"
           "--time-passes the time of each pass of the translation (read, parse, lower,\n"
           "check, extents, mdrange, range, nonneg, fusion, werror)\n"
           "Run 'pkc help COMMAND' for more; 'pkc help environment', 'pkc help exit-status'\n"
           "and 'pkc help files' list the environment variables, exit statuses and files.\n");
    return 0;
  }
  if (print_table(topic))
    return 0;
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

/* Long options without a short form: their getopt_long values. */
enum {
  OPT_BACKEND = 256, OPT_KOKKOS_ROOT, OPT_FORMAT, OPT_REAL, OPT_SPECIALIZE, OPT_ERROR_MODEL,
  OPT_WITH_SIGNATURE,
  OPT_VERSION, OPT_STRICT_TYPES, OPT_WERROR, OPT_BOUNDS_CHECK, OPT_ALLOW_WARNINGS,
  OPT_NO_FUSION, OPT_FUSION_REPORT, OPT_NO_LINE_DIRECTIVES, OPT_LINE_DIRECTIVES,
  OPT_TIME_PASSES
};

/* '-' first: positional arguments come back in order (as 1), whatever
 * POSIXLY_CORRECT says; ':' next: a missing value comes back as ':'. */
static const char SHORT_OPTS[] = "-:o:j:hqv";

static const struct option LONG_OPTS[] = {
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"kokkos-root", required_argument, NULL, OPT_KOKKOS_ROOT},
    {"diagnostics-format", required_argument, NULL, OPT_FORMAT},
    {"real", required_argument, NULL, OPT_REAL},
    {"specialize", required_argument, NULL, OPT_SPECIALIZE},
    {"error-model", required_argument, NULL, OPT_ERROR_MODEL},
    {"with-signature", required_argument, NULL, OPT_WITH_SIGNATURE},
    {"version", no_argument, NULL, OPT_VERSION},
    {"help", no_argument, NULL, 'h'},
    {"quiet", no_argument, NULL, 'q'},
    {"verbose", no_argument, NULL, 'v'},
    {"strict-types", no_argument, NULL, OPT_STRICT_TYPES},
    {"werror", no_argument, NULL, OPT_WERROR},
    {"bounds-check", no_argument, NULL, OPT_BOUNDS_CHECK},
    {"allow-warnings", no_argument, NULL, OPT_ALLOW_WARNINGS},
    {"no-fusion", no_argument, NULL, OPT_NO_FUSION},
    {"fusion-report", no_argument, NULL, OPT_FUSION_REPORT},
    {"no-line-directives", no_argument, NULL, OPT_NO_LINE_DIRECTIVES},
    {"line-directives", no_argument, NULL, OPT_LINE_DIRECTIVES},
    {"time-passes", no_argument, NULL, OPT_TIME_PASSES},
    {NULL, 0, NULL, 0}};

/* How the user spelled option val (for messages): -o, -j or --name. */
static const char *option_name(int val, char *buf, size_t len) {
  if (val < 256) {
    snprintf(buf, len, "-%c", val);
    return buf;
  }
  for (const struct option *lo = LONG_OPTS; lo->name; lo++)
    if (lo->val == val) {
      snprintf(buf, len, "--%s", lo->name);
      return buf;
    }
  return "?";
}

static int parse_real(const char *v, pki_kind *real) {
  if (strcmp(v, "float32") == 0 || strcmp(v, "float") == 0)
    *real = PKI_F32;
  else if (strcmp(v, "float64") == 0 || strcmp(v, "double") == 0)
    *real = PKI_F64;
  else
    return usage_error("unknown --real precision '%s' (use float32 or float64)", v);
  return 0;
}

static int parse_jobs(const char *v, int *jobs) {
  char *end;
  long j = strtol(v, &end, 10);
  if (*end || !*v || j < 1 || j > 1024)
    return usage_error("-j needs a positive number, got '%s'", v);
  *jobs = (int)j;
  return 0;
}

/* An option that takes a value (v: its value). */
static int valued_option(pkc_options *o, int opt, const char *v) {
  switch (opt) {
  case OPT_BACKEND:
    if (strcmp(v, "serial") && strcmp(v, "openmp") && strcmp(v, "cuda") && strcmp(v, "hip"))
      return usage_error("unknown backend '%s' (use serial, openmp, cuda or hip)", v);
    o->backend = v;
    return 0;
  case OPT_KOKKOS_ROOT: o->kokkos_root = v; return 0;
  case OPT_FORMAT: return parse_format(v, &o->format);
  case 'o': o->outdir = v; return 0;
  case OPT_REAL: return parse_real(v, &o->real);
  case OPT_SPECIALIZE: o->specialize[o->nspecialize++] = v; return 0;
  case OPT_WITH_SIGNATURE: o->with_signature[o->nwith_signature++] = v; return 0;
  case OPT_ERROR_MODEL:
    if (strcmp(v, "python") && strcmp(v, "numpy"))
      return usage_error("unknown --error-model '%s' (use python or numpy)", v);
    o->error_model_numpy = !strcmp(v, "numpy");
    return 0;
  default: return parse_jobs(v, &o->jobs); /* 'j' */
  }
}

/* A flag (an option without a value). */
static void flag_option(pkc_options *o, int opt) {
  switch (opt) {
  case OPT_VERSION: o->command = PKC_CMD_VERSION; break;
  case 'h': o->command = PKC_CMD_HELP; break;
  case 'q': o->verbosity = -1; break;
  case 'v': o->verbosity = 1; break;
  case OPT_STRICT_TYPES: o->strict_types = true; break;
  case OPT_WERROR: o->werror = true; break;
  case OPT_BOUNDS_CHECK: o->bounds_check = true; break;
  case OPT_ALLOW_WARNINGS: o->allow_warnings = true; break;
  case OPT_NO_FUSION: o->no_fusion = true; break;
  case OPT_FUSION_REPORT: o->fusion_report = true; break;
  case OPT_NO_LINE_DIRECTIVES: o->line_directives = false; break;
  case OPT_TIME_PASSES: o->time_passes = true; break;
  default: o->line_directives = true; break; /* OPT_LINE_DIRECTIVES */
  }
}

/* A positional argument: the command, then help's topic, then the files. */
static int positional(pkc_options *o, const char *a) {
  if (o->command == PKC_CMD_NONE) {
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
  return 0;
}

int pkc_parse_options(int argc, char **argv, pkc_options *o) {
  memset(o, 0, sizeof *o);
  o->line_directives = true;
  o->backend = "openmp";
  o->files = (const char **)calloc((size_t)argc + 1, sizeof(char *));
  o->specialize = (const char **)calloc((size_t)argc + 1, sizeof(char *));
  o->with_signature = (const char **)calloc((size_t)argc + 1, sizeof(char *));
  opterr = 0; /* pkc words its own messages */
  optind = 0; /* a full rescan (glibc), should this run twice */
  int opt, rc = 0;
  char name[64];
  while (!rc && (opt = getopt_long(argc, argv, SHORT_OPTS, LONG_OPTS, NULL)) != -1) {
    if (opt == 1)
      rc = positional(o, optarg);
    else if (opt == ':')
      rc = usage_error("option '%s' needs a value", option_name(optopt, name, sizeof name));
    else if (opt == '?')
      rc = optopt ? usage_error("unknown option '%s'", option_name(optopt, name, sizeof name))
                  : usage_error("unknown option '%s'", argv[optind - 1]);
    else if (opt == 'o' || opt == 'j' || (opt >= OPT_BACKEND && opt <= OPT_WITH_SIGNATURE))
      rc = valued_option(o, opt, optarg);
    else
      flag_option(o, opt);
  }
  if (rc)
    return rc;
  for (int i = optind; i < argc; i++) /* after "--" */
    if ((rc = positional(o, argv[i])) != 0)
      return rc;
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
