/*
 * pkc.c - the pkc command: check, emit, ir, build (docs/ARCHITECTURE.md, section 1),
 * annotate (annotate.c).
 * Data flows one way: source -> frontend (IR, diagnostics) -> backends.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../backends/backends.h"
#include "../ir/access.h"
#include "../frontend/frontend.h"
#include "annotate.h"
#include "options.h"

/* One translated file: its IR and diagnostics (both in the module's arena). */
typedef struct pkc_unit {
  pki_module *module;
  pki_diags diags;
  int errors; /* -1: unreadable */
} pkc_unit;

/* The fusion plan of the module (ir/fuse_plan.c); for `check
 * --fusion-report` its candidates become notes (code "fusion"). */
static void plan_fusion(const pkc_options *o, pkc_unit *u) {
  if (u->errors > 0 && o->command == PKC_CMD_CHECK)
    return; /* the report needs a checked module */
  pki_fusion_plan_module(u->module);
  if (o->command != PKC_CMD_CHECK)
    return;
  const pki_fusion_plan *p = u->module->fusion;
  for (int i = 0; i < p->notes.n; i++) {
    const pki_fusion_note *n = PKI_AT(p->notes, i, pki_fusion_note);
    pki_note(&u->diags, n->at, "fusion", "%s", n->text);
  }
}

/* `pkc ir`: the fused kernels after the IR, one line each with their chain. */
static void print_fusion(const pki_module *m, FILE *out) {
  const pki_fusion_plan *p = m->fusion;
  for (int i = 0; p && i < p->groups.n; i++) {
    const pki_fused *g = PKI_AT(p->groups, i, pki_fused);
    fprintf(out, "fused%d in %s.%s:", g->id, g->main->owner->name, g->main->name);
    for (int k = 0; k < g->n; k++)
      fprintf(out, " %s%s@%u", k ? "+ " : "", g->stmts[k]->closure->name,
              (unsigned)g->stmts[k]->span.line);
    if (g->loop)
      fprintf(out, " (repeated by the loop of line %u)", (unsigned)g->loop->span.line);
    if (g->bounds_at_run_time)
      fprintf(out, " (when the bounds are equal at run time)");
    fputc('\n', out);
  }
}

/* One translation between its passes. */
typedef struct pkc_job {
  const pkc_options *o;
  const char *path;
  pkf_options fo;
  char *source; /* the file's bytes, until lowered */
  size_t len;
  pkf_parsed *parsed;
  pkc_unit *u;
} pkc_job;

static bool pass_read(pkc_job *j) {
  if (pkf_read_file(j->path, &j->source, &j->len) == 0)
    return true;
  fprintf(stderr, "pkc: error: cannot read '%s': %s\n", j->path, strerror(errno));
  j->u->errors = -1;
  return false;
}

static bool pass_parse(pkc_job *j) {
  j->parsed = pkf_parse(j->path, j->source, j->len, &j->fo, &j->u->diags);
  return true;
}

static bool pass_lower(pkc_job *j) {
  pkf_lower_parsed(j->parsed);
  j->u->module = pkf_parsed_finish(j->parsed);
  j->parsed = NULL;
  free(j->source);
  j->source = NULL;
  pkf_set_abspath(j->u->module, j->path);
  return true;
}

static bool pass_check(pkc_job *j) {
  pkf_select_check(j->u->module, &j->fo, &j->u->diags);
  j->u->errors = j->u->diags.errors;
  if (j->fo.keep_going && j->o->verbosity <= 0) {
    /* builds print errors and warnings; notes (run-time typing) with -v */
    pkc_unit *u = j->u;
    int k = 0;
    for (int i = 0; i < u->diags.n; i++)
      if (u->diags.items[i].severity != PKI_SEV_NOTE)
        u->diags.items[k++] = u->diags.items[i];
    u->diags.n = k;
  }
  return true;
}

static bool pass_extents(pkc_job *j) {
  if (j->o->command != PKC_CMD_CHECK)
    pki_extent_plan_module(j->u->module); /* the wrappers check launch ranges */
  return true;
}

static bool pass_mdrange(pkc_job *j) {
  if (j->o->command != PKC_CMD_CHECK)
    pki_mdrange_plan_module(j->u->module); /* MDRange rows / tiles along the contiguous index */
  return true;
}

static bool pass_range(pkc_job *j) {
  if (j->o->command != PKC_CMD_CHECK)
    pki_range_plan_module(j->u->module); /* RangePolicy blocks free of dependences, copies */
  return true;
}

static bool pass_footprint(pkc_job *j) {
  if (j->o->command != PKC_CMD_CHECK)
    pki_footprint_plan_module(j->u->module); /* what each work item touches: pk.Graph edges */
  return true;
}

static bool pass_nonneg(pkc_job *j) {
  if (j->o->command != PKC_CMD_CHECK)
    pki_nonneg_plan_module(j->u->module); /* // and % of values >= 0 as C++'s / and % */
  return true;
}

static bool pass_fusion(pkc_job *j) {
  if (j->o->command == PKC_CMD_CHECK ? j->o->fusion_report : !j->o->no_fusion)
    plan_fusion(j->o, j->u);
  return true;
}

static bool pass_werror(pkc_job *j) {
  pkc_unit *u = j->u;
  for (int i = 0; j->o->werror && i < u->diags.n; i++)
    if (u->diags.items[i].severity == PKI_SEV_WARNING) {
      u->diags.items[i].severity = PKI_SEV_ERROR;
      u->diags.errors++;
      u->errors++;
    }
  return true;
}

/* The passes of a translation, in order (a pass returns false to stop);
 * `--time-passes` prints the time of each. The backend (emit, build) runs
 * after them, in run_backend. */
static const struct {
  const char *name;
  bool (*run)(pkc_job *j);
} PASSES[] = {
    {"read", pass_read},       /* the file's bytes */
    {"parse", pass_parse},     /* tree-sitter tree, node index, syntax errors */
    {"lower", pass_lower},     /* entities to the kernel IR; host launches checked */
    {"check", pass_check},     /* pki_check; builds leave out entities with errors */
    {"extents", pass_extents}, /* launch-range rules of the C wrappers (not check) */
    {"mdrange", pass_mdrange}, /* MDRange schemes: contiguous index, rows or tiles */
    {"range", pass_range},     /* RangePolicy: own-element writes, copies */
    {"footprint", pass_footprint}, /* elements per work item, for pk.Graph's edges */
    {"nonneg", pass_nonneg},   /* integer // and % that C++ computes as Python does */
    {"fusion", pass_fusion},   /* fusion plan (check: with --fusion-report) */
    {"werror", pass_werror},   /* --werror: warnings become errors */
};

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Prints "pkc: passes of PATH: read 0.02 ms, parse ..." (--time-passes). */
static void print_pass_times(const char *path, const double *ms, int n) {
  fprintf(stderr, "pkc: passes of %s:", path);
  for (int i = 0; i < n; i++)
    fprintf(stderr, "%s %s %.3f ms", i ? "," : "", PASSES[i].name, ms[i]);
  fputc('\n', stderr);
}

/* spec: the run-time specialization to translate (NULL: the whole file).
 * build/emit translate partially (entities with errors are left out). */
static void translate(const pkc_options *o, const char *path, const pkf_spec *spec,
                      pkc_unit *u) {
  memset(u, 0, sizeof *u);
  pkc_job j = {.o = o, .path = path, .u = u,
               .fo = {.real = o->real,
                      .strict_types = o->strict_types,
                      .keep_going = o->command == PKC_CMD_BUILD || o->command == PKC_CMD_EMIT,
                      .spec = spec}};
  enum { NPASSES = sizeof PASSES / sizeof *PASSES };
  double ms[NPASSES];
  int n = 0;
  while (n < NPASSES) {
    double t0 = now_ms();
    bool go_on = PASSES[n].run(&j);
    ms[n++] = now_ms() - t0;
    if (!go_on)
      break;
  }
  if (o->time_passes)
    print_pass_times(path, ms, n);
}

static void render(const pkc_options *o, pkc_unit *units, int n) {
  const pki_diags **all = calloc((size_t)n, sizeof *all);
  int k = 0, ndiags = 0;
  for (int i = 0; i < n; i++)
    if (units[i].errors >= 0) {
      all[k++] = &units[i].diags;
      ndiags += units[i].diags.n;
    }
  if (o->format != PKF_DIAG_TEXT || ndiags > 0)
    pkf_render_diags(o->format == PKF_DIAG_TEXT ? stderr : stdout, all, k, o->format,
                     o->format == PKF_DIAG_TEXT && isatty(2), PKC_VERSION);
  free(all);
}

/* Default output directory: FILE.pk beside FILE (the ".py" dropped). */
static char *default_outdir(const char *path) {
  size_t n = strlen(path);
  if (n > 3 && strcmp(path + n - 3, ".py") == 0)
    n -= 3;
  char *d = malloc(n + 4);
  memcpy(d, path, n);
  memcpy(d + n, ".pk", 4);
  return d;
}

/* --kokkos-root, else $Kokkos_ROOT, else the default for the backend (in buf). */
/* The Kokkos install: --kokkos-root, else $Kokkos_ROOT, else the default for
 * the backend; made absolute when it exists (CMake and nvcc_wrapper run
 * from the build directory). */
static const char *kokkos_root(const pkc_options *o, char *buf, size_t len) {
  const char *root = o->kokkos_root;
  const char *env = getenv("Kokkos_ROOT");
  if (!root && env && *env)
    root = env;
  if (!root)
    root = pkb_default_kokkos_root(o->backend, buf, len);
  char abs[PATH_MAX];
  if (realpath(root, abs) && strlen(abs) < len) {
    memcpy(buf, abs, strlen(abs) + 1);
    return buf;
  }
  return root;
}

static int run_backend(const pkc_options *o, pkc_unit *u, const char *path,
                       const char *spec_outdir) {
  char *outdir = spec_outdir ? strdup(spec_outdir)
                 : o->outdir ? strdup(o->outdir) : default_outdir(path);
  char rootbuf[4096];
  pkb_options bo = {
      .outdir = outdir,
      .backend = o->backend,
      .kokkos_root = kokkos_root(o, rootbuf, sizeof rootbuf),
      .pkc_version = PKC_VERSION,
      .line_directives = o->line_directives,
      .jobs = o->jobs,
      .verbosity = o->verbosity,
      .progress = isatty(2) && o->verbosity >= 0,
      .allow_warnings = o->allow_warnings,
      .error_model_numpy = o->error_model_numpy,
      .bounds_check = o->bounds_check,
  };
  char err[4096] = "";
  int rc;
  if (o->command == PKC_CMD_EMIT) {
    rc = pkb_emit(u->module, &bo, err, sizeof err) ? PKC_EXIT_TOOLCHAIN : PKC_EXIT_OK;
    if (!rc && o->verbosity > 0)
      fprintf(stderr, "pkc: wrote %s\n", outdir);
  } else {
    rc = pkb_build(u->module, &bo, err, sizeof err) ? PKC_EXIT_TOOLCHAIN : PKC_EXIT_OK;
  }
  if (rc)
    fprintf(stderr, "pkc: %s: %s\n", path, err[0] ? err : "failed");
  free(outdir);
  return rc;
}

/* Builds (or emits) one run-time specialization of path (signature sig,
 * already parsed into spec); returns an exit status. */
static int run_spec(const pkc_options *o, const char *path, const char *sig, const pkf_spec *spec) {
  pkc_unit u;
  pki_arena *a = pki_arena_new();
  int status = PKC_EXIT_OK;
  translate(o, path, spec, &u);
  if (u.errors < 0) {
    pki_arena_free(a);
    return PKC_EXIT_USAGE;
  }
  render(o, &u, 1);
  if (u.errors > 0) {
    status = PKC_EXIT_INPUT;
  } else {
    char *outdir = o->outdir ? strdup(o->outdir) : default_outdir(path);
    status = run_backend(o, &u, path, pkb_spec_outdir(a, outdir, spec->kernel, sig));
    free(outdir);
  }
  pki_module_free(u.module);
  pki_arena_free(a);
  return status;
}

/* A --specialize signature: parsed, then built. */
static int run_specialization(const pkc_options *o, const char *path, const char *sig) {
  pki_arena *a = pki_arena_new();
  pkf_spec spec;
  char err[512];
  int col = 0, status;
  if (!pkf_spec_parse(a, sig, &spec, &col, err, sizeof err)) {
    fprintf(stderr, "pkc: %s: bad signature '%s' (column %d): %s\n", path, sig, col, err);
    status = PKC_EXIT_USAGE;
  } else {
    status = run_spec(o, path, sig, &spec);
  }
  pki_arena_free(a);
  return status;
}

/* The signatures a run recorded for path (PKC_RECORD_SIGNATURES=1 writes
 * <dir>/<stem>.pkc-signatures beside it, one per line): each is built; a
 * sidecar that is not a regular file, or a bad line, is reported by
 * file:line:col (exit 1; the good lines are still built). */
static int recorded_specializations(const pkc_options *o, const char *path) {
  size_t n = strlen(path);
  if (n > 3 && strcmp(path + n - 3, ".py") == 0)
    n -= 3;
  pki_arena *a = pki_arena_new();
  char *side = pki_alloc(a, n + 32), *text, err[PATH_MAX + 256];
  memcpy(side, path, n);
  strcpy(side + n, ".pkc-signatures");
  size_t len;
  int got = pkf_sidecar_read(a, side, &text, &len, err, sizeof err);
  if (got <= 0) {
    if (got < 0)
      fprintf(stderr, "%s\n", err);
    pki_arena_free(a);
    return got < 0 ? PKC_EXIT_INPUT : PKC_EXIT_OK;
  }
  pkf_sidecar_line *lines;
  int nlines;
  int status = pkf_sidecar_parse(a, side, text, len, &lines, &nlines, stderr) ? PKC_EXIT_INPUT
                                                                              : PKC_EXIT_OK;
  for (int i = 0; i < nlines; i++) {
    int rc = run_spec(o, path, lines[i].text, &lines[i].spec);
    if (rc > status)
      status = rc;
  }
  pki_arena_free(a);
  return status;
}

/* --with-signature: run-time specializations built beside the module, each
 * in a child process (at most `cap` at once, the parent's own build counting
 * as one while it runs, unless the module has no kernels of its own). Only those whose workunit the file types at run
 * time; built quietly, their status ignored: a call that finds one missing
 * builds it again with `--specialize`, showing why. */
typedef struct with_jobs {
  const char **sigs; /* the signatures to build */
  int n, next, running, cap;
} with_jobs;

static bool runtime_typed(const pki_module *m, const char *kernel) {
  for (int i = 0; i < m->nomitted; i++)
    if (m->omitted[i].kind == PKI_OMIT_RUNTIME_TYPED && !strcmp(m->omitted[i].entity, kernel))
      return true;
  return false;
}

/* The --with-signature signatures of m's run-time-typed workunits, in jobs. */
static void with_prepare(const pkc_options *o, pki_arena *a, const pki_module *m, with_jobs *j) {
  memset(j, 0, sizeof *j);
  j->sigs = pki_alloc(a, ((size_t)o->nwith_signature + 1) * sizeof *j->sigs);
  for (int i = 0; i < o->nwith_signature; i++) {
    pkf_spec spec;
    char err[512];
    int col;
    if (pkf_spec_parse(a, o->with_signature[i], &spec, &col, err, sizeof err) &&
        runtime_typed(m, spec.kernel))
      j->sigs[j->n++] = o->with_signature[i];
  }
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  j->cap = o->jobs > 0 ? o->jobs : cores > 0 ? (int)cores : 1;
}

/* Starts signatures until `slots` children run. */
static void with_start(const pkc_options *o, const char *path, with_jobs *j, int slots) {
  while (j->next < j->n && j->running < slots) {
    const char *sig = j->sigs[j->next++];
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
      int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
      if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
      }
      pkc_options q = *o;
      q.verbosity = -1;
      _exit(run_specialization(&q, path, sig));
    }
    if (pid > 0)
      j->running++;
  }
}

/* Starts the rest (cap at once) and waits for every child. */
static void with_finish(const pkc_options *o, const char *path, with_jobs *j) {
  for (;;) {
    with_start(o, path, j, j->cap);
    if (j->running == 0)
      return;
    int st;
    if (wait(&st) >= 0)
      j->running--;
    else if (errno != EINTR)
      return;
  }
}

/* Valid --with-signature texts, else a usage error (as --specialize). */
static int with_check(const pkc_options *o) {
  for (int i = 0; i < o->nwith_signature; i++) {
    pki_arena *a = pki_arena_new();
    pkf_spec spec;
    char err[512];
    int col = 0;
    bool ok = pkf_spec_parse(a, o->with_signature[i], &spec, &col, err, sizeof err);
    if (!ok)
      fprintf(stderr, "pkc: %s: bad signature '%s' (column %d): %s\n", o->files[0],
              o->with_signature[i], col, err);
    pki_arena_free(a);
    if (!ok)
      return PKC_EXIT_USAGE;
  }
  return PKC_EXIT_OK;
}

/* Builds one translated file: its module, the --with-signature
 * specializations beside it, then the recorded ones. */
static int build_file(const pkc_options *o, pkc_unit *u, const char *path) {
  pki_arena *a = pki_arena_new();
  with_jobs j;
  with_prepare(o, a, u->module, &j);
  /* the module's own build counts as one job, unless it has no kernels
   * (then it only links its descriptor: every specialization starts now) */
  with_start(o, path, &j, pkb_module_kernels(u->module) ? j.cap - 1 : j.cap);
  int rc = run_backend(o, u, path, NULL);
  if (rc == PKC_EXIT_OK && o->command == PKC_CMD_BUILD)
    rc = recorded_specializations(o, path);
  with_finish(o, path, &j);
  pki_arena_free(a);
  return rc;
}

static int run_files(const pkc_options *o) {
  if (o->nspecialize) {
    int status = PKC_EXIT_OK;
    for (int i = 0; i < o->nspecialize; i++) {
      int rc = run_specialization(o, o->files[0], o->specialize[i]);
      if (rc > status)
        status = rc;
    }
    return status;
  }
  int status = with_check(o);
  if (status != PKC_EXIT_OK)
    return status;
  pkc_unit *units = calloc((size_t)o->nfiles, sizeof *units);
  for (int i = 0; i < o->nfiles; i++) {
    translate(o, o->files[i], NULL, &units[i]);
    if (units[i].errors < 0)
      status = PKC_EXIT_USAGE; /* unreadable input: already reported */
    else if (units[i].errors > 0 && status == PKC_EXIT_OK)
      status = PKC_EXIT_INPUT;
  }
  render(o, units, o->nfiles);
  bool partial = o->command == PKC_CMD_EMIT || o->command == PKC_CMD_BUILD;
  for (int i = 0; i < o->nfiles; i++) {
    if (units[i].errors < 0)
      continue;
    if (o->command == PKC_CMD_IR && status == PKC_EXIT_OK) {
      pki_print(units[i].module, stdout);
      print_fusion(units[i].module, stdout);
    } else if (partial) {
      /* entities with errors were left out: build the rest (exit 1 still) */
      pki_module *m = units[i].module;
      if (units[i].errors > 0 && m->nentities == 0 && m->nomitted == 0)
        continue; /* rejected as a whole (an error outside every entity) */
      int rc = build_file(o, &units[i], o->files[i]);
      if (rc > status || (rc && status == PKC_EXIT_INPUT))
        status = rc;
    }
  }
  for (int i = 0; i < o->nfiles; i++)
    pki_module_free(units[i].module);
  free(units);
  return status;
}

/* What `pkc annotate` prints: errors and warnings, as builds do (notes, the
 * fusion notes among them, with -v); the page shows them all. */
static void render_annotated(const pkc_options *o, const pkc_unit *u) {
  pkc_unit shown = *u;
  pki_diag *items = malloc(((size_t)u->diags.n + 1) * sizeof *items);
  int k = 0;
  for (int i = 0; items && i < u->diags.n; i++)
    if (o->verbosity > 0 || u->diags.items[i].severity != PKI_SEV_NOTE)
      items[k++] = u->diags.items[i];
  shown.diags.items = items;
  shown.diags.n = k;
  render(o, &shown, 1);
  free(items);
}

/* `pkc annotate` of one file, translated as `pkc check --fusion-report`
 * (diagnostics, kernels) and as `pkc emit` (the C++ of the entities without
 * errors); the page is written with errors too. Returns an exit status. */
static int annotate_file(const pkc_options *o, const char *path) {
  pkc_options co = *o, eo = *o;
  co.command = PKC_CMD_CHECK;
  co.fusion_report = true;
  eo.command = PKC_CMD_EMIT;
  pkc_unit cu, eu;
  translate(&co, path, NULL, &cu);
  if (cu.errors < 0)
    return PKC_EXIT_USAGE; /* unreadable: already reported */
  render_annotated(o, &cu);
  translate(&eo, path, NULL, &eu);
  const pki_module *em = eu.module;
  if (eu.errors < 0 || (eu.errors > 0 && em->nentities == 0 && em->nomitted == 0))
    em = NULL; /* rejected as a whole: no C++ */
  pkb_options bo = {.backend = o->backend,
                    .pkc_version = PKC_VERSION,
                    .line_directives = true,
                    .error_model_numpy = o->error_model_numpy,
                    .bounds_check = o->bounds_check};
  pkc_annotation a = {.path = path, .checked = cu.module, .diags = &cu.diags,
                      .emitted = em, .bo = &bo, .version = PKC_VERSION};
  char *out = o->outdir ? strdup(o->outdir) : pkc_annotate_default_path(path);
  char err[4400] = "";
  int status = cu.errors > 0 ? PKC_EXIT_INPUT : PKC_EXIT_OK;
  if (!out || pkc_annotate(&a, out, err, sizeof err) != 0) {
    fprintf(stderr, "pkc: %s: %s\n", path, err[0] ? err : "out of memory");
    status = PKC_EXIT_TOOLCHAIN; /* as pkc emit when it cannot write */
  } else if (o->verbosity > 0) {
    fprintf(stderr, "pkc: wrote %s\n", out);
  }
  free(out);
  pki_module_free(eu.module);
  pki_module_free(cu.module);
  return status;
}

static int run_annotate(const pkc_options *o) {
  int status = PKC_EXIT_OK;
  for (int i = 0; i < o->nfiles; i++) {
    int rc = annotate_file(o, o->files[i]);
    if (rc > status)
      status = rc;
  }
  return status;
}

int main(int argc, char **argv) {
  pkc_options o;
  int rc = pkc_parse_options(argc, argv, &o);
  if (rc == 0) {
    switch (o.command) {
    case PKC_CMD_VERSION:
      printf("pkc %s\n", PKC_VERSION);
      break;
    case PKC_CMD_HELP:
      rc = pkc_print_help(o.help_topic);
      break;
    case PKC_CMD_ANNOTATE:
      rc = run_annotate(&o);
      break;
    default:
      rc = run_files(&o);
      break;
    }
  }
  free(o.files);
  free(o.specialize);
  free(o.with_signature);
  return rc;
}
