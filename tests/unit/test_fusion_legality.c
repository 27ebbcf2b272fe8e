/* test_fusion_legality.c - access summaries (ir/access.c) and the legality of
 * fusing kernel sequences (ir/fusion.c): one test per rule, positive and
 * negative, plus the reason text; and the rules of the plan of @pk.main
 * (ir/fuse_plan.c) for several reductions in one kernel. Kernels come from
 * Python source through the frontend and pki_check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "access.h"
#include "frontend_test_util.h"

/* ------------------------------------------------------------ helpers */

/* Lowers and checks src; fails the test on any error. */
static pki_module *build(const char *src) {
  pki_diags d;
  pki_module *m = lower(src, &d);
  int errors = d.errors + pki_check(m, &d);
  for (int i = 0; errors && i < d.n; i++)
    print_error("  diag %u:%u: %s\n", d.items[i].span.line, d.items[i].span.col,
                d.items[i].message);
  assert_int_equal(errors, 0);
  return m;
}

/* The kernel (workunit) named name, in any entity. */
static pki_func *kernel(pki_module *m, const char *name) {
  for (int i = 0; i < m->nentities; i++)
    for (int k = 0; k < m->entities[i]->nfuncs; k++)
      if (!strcmp(m->entities[i]->funcs[k]->name, name))
        return m->entities[i]->funcs[k];
  fail_msg("no kernel %s", name);
  return NULL;
}

static const pki_var *var_of(const pki_func *f, const char *name) {
  for (int i = 0; i < f->nparams; i++)
    if (!strcmp(f->params[i]->name, name))
      return f->params[i];
  const pki_var *v = f->owner ? pki_entity_member(f->owner, name) : NULL;
  if (!v)
    fail_msg("kernel %s has no %s", f->name, name);
  return v;
}

/* A sequence under construction (at most 6 kernels of 6 Views each). */
typedef struct seq {
  pki_module *m;
  pki_fuse_kernel k[6];
  pki_fuse_view views[6][6];
  pki_fuse_input inputs[6][2];
  int n;
} seq;

/* Appends kernel name with Views bound as in ids ("u=1 w=2"). */
static void add(seq *s, const char *name, pki_policy pol, int rank, pki_bounds b,
                const char *ids) {
  const pki_func *f = kernel(s->m, name);
  pki_fuse_kernel *k = &s->k[s->n];
  *k = (pki_fuse_kernel){.sum = pki_access_summarize(s->m, f), .policy = pol, .rank = rank,
                         .bounds = b, .views = s->views[s->n], .inputs = s->inputs[s->n]};
  char nm[32];
  int id, used;
  for (const char *p = ids; sscanf(p, " %31[^= ]=%d%n", nm, &id, &used) == 2; p += used)
    s->views[s->n][k->nviews++] = (pki_fuse_view){var_of(f, nm), id};
  s->n++;
}

/* add() over a range with the same bounds */
static void add_r(seq *s, const char *name, const char *ids) {
  add(s, name, PKI_POLICY_RANGE, 1, PKI_BOUNDS_SAME, ids);
}

/* Scalar var of the last kernel added holds the result of kernel producer. */
static void add_input(seq *s, const char *var, int producer) {
  pki_fuse_kernel *k = &s->k[s->n - 1];
  s->inputs[s->n - 1][k->ninputs++] = (pki_fuse_input){var_of(k->sum->kernel, var), producer};
}

static pki_fuse_decision check(seq *s) { return pki_fuse_check(s->k, s->n); }

static const char *reason(seq *s, const pki_fuse_decision *d) {
  return pki_fuse_reason(s->m->arena, s->k, s->n, d);
}

static void expect_reason(seq *s, const pki_fuse_decision *d, const char *want) {
  const char *got = reason(s, d);
  if (strcmp(got, want))
    fail_msg("reason\n  got:  %s\n  want: %s", got, want);
}

/* The access of s to View `view` at source line `line` with exactly mode bits `mode`. */
#define ATOMIC_RW (PKI_MEM_READ | PKI_MEM_WRITE | PKI_MEM_ATOMIC)
static const pki_access *find(const pki_access_summary *s, const char *view, unsigned line,
                              unsigned mode) {
  for (int i = 0; i < s->accesses.n; i++) {
    const pki_access *a = PKI_AT(s->accesses, i, pki_access);
    if (!strcmp(a->view->name, view) && a->span.line == line && a->mode == mode)
      return a;
  }
  fail_msg("no access to %s at line %u (mode %u) in %s", view, line, mode, s->name);
  return NULL;
}

static void expect_idx(const pki_access *a, int dim, pki_idx_kind kind, int work,
                       int64_t offset) {
  const pki_idx *x = &a->idx[dim];
  if (x->kind != kind)
    fail_msg("dim %d of %s at line %u: %s, want %s", dim, a->view->name, a->span.line,
             pki_idx_kind_name(x->kind), pki_idx_kind_name(kind));
  if (kind == PKI_IDX_IDENTITY || kind == PKI_IDX_OFFSET)
    assert_int_equal(x->work, work);
  if (kind == PKI_IDX_OFFSET || (kind == PKI_IDX_INDEPENDENT && x->constant))
    assert_int_equal(x->offset, offset);
}

/* ------------------------------------------------------- summaries */

static const char *KINDS =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workunit\n"
    "def k(i: int, n: int, v: pk.View1D[pk.double], idx: pk.View1D[pk.int32],\n"
    "      a: pk.View2D[pk.double]):\n"
    "    v[i] = 1.0\n"                     /* 6 */
    "    v[i + 1] += v[i - 2]\n"           /* 7 */
    "    v[2 * i] = v[i * n]\n"            /* 8 */
    "    v[idx[i]] = 0.0\n"                /* 9 */
    "    for j in range(n):\n"             /* 10 */
    "        a[i, j] = v[j] + v[3]\n"      /* 11 */
    "    v[i % 4] = 2.0\n"                 /* 12 */
    "    t: int = i + 5\n"                 /* 13 */
    "    v[t] = 3.0\n";                    /* 14 */

/* Each index kind, read/write modes, and the per-View union. */
static void test_summary_index_kinds(void **state) {
  (void)state;
  pki_module *m = build(KINDS);
  const pki_access_summary *s = pki_access_summarize(m, kernel(m, "k"));
  assert_false(s->unknown);
  assert_false(s->reduction);
  assert_int_equal(s->nwork, 1);
  assert_string_equal(s->work[0], "i");
  expect_idx(find(s, "v", 6, PKI_MEM_WRITE), 0, PKI_IDX_IDENTITY, 0, 0);
  const pki_access *rw = find(s, "v", 7, PKI_MEM_READ | PKI_MEM_WRITE);
  expect_idx(rw, 0, PKI_IDX_OFFSET, 0, 1);
  const pki_access *back = find(s, "v", 7, PKI_MEM_READ);
  assert_ptr_not_equal(back, rw);
  expect_idx(back, 0, PKI_IDX_OFFSET, 0, -2);
  expect_idx(find(s, "v", 8, PKI_MEM_WRITE), 0, PKI_IDX_AFFINE, 0, 0);
  expect_idx(find(s, "v", 8, PKI_MEM_READ), 0, PKI_IDX_AFFINE, 0, 0);
  expect_idx(find(s, "v", 9, PKI_MEM_WRITE), 0, PKI_IDX_INDIRECT, 0, 0);
  expect_idx(find(s, "idx", 9, PKI_MEM_READ), 0, PKI_IDX_IDENTITY, 0, 0);
  const pki_access *row = find(s, "a", 11, PKI_MEM_WRITE);
  assert_int_equal(row->rank, 2);
  expect_idx(row, 0, PKI_IDX_IDENTITY, 0, 0);
  expect_idx(row, 1, PKI_IDX_INDEPENDENT, 0, 0);
  assert_false(row->idx[1].constant);
  assert_string_equal(row->idx[1].text, "j");
  expect_idx(find(s, "v", 11, PKI_MEM_READ), 0, PKI_IDX_INDEPENDENT, 0, 3);
  expect_idx(find(s, "v", 12, PKI_MEM_WRITE), 0, PKI_IDX_NONAFFINE, 0, 0);
  expect_idx(find(s, "v", 14, PKI_MEM_WRITE), 0, PKI_IDX_OFFSET, 0, 5);
  assert_int_equal(pki_access_view(s, var_of(s->kernel, "v"))->mode,
                   PKI_MEM_READ | PKI_MEM_WRITE);
  assert_int_equal(pki_access_view(s, var_of(s->kernel, "idx"))->mode, PKI_MEM_READ);
  assert_int_equal(s->scalars.n, 1); /* n */
  assert_string_equal(pki_access_where(m->arena, s, rw), "i + 1");
  assert_string_equal(pki_access_where(m->arena, s, row), "[i, j]");
  pki_module_free(m);
}

static const char *FLAGS =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workunit\n"
    "def red(i: int, acc: pk.Acc[pk.double], a: pk.View1D[pk.double]):\n"
    "    acc += a[i]\n"
    "\n"
    "@pk.workunit\n"
    "def mx(i: int, acc: pk.Max[pk.double], a: pk.View1D[pk.double]):\n"
    "    acc = max(acc, a[i])\n"
    "\n"
    "@pk.workunit\n"
    "def draw(i: int, pool: pk.Random_XorShift64_Pool, out: pk.View1D[pk.double]):\n"
    "    state = pool.get_state()\n"
    "    out[i] = state.drand()\n"
    "    pool.free_state(state)\n"
    "\n"
    "@pk.workunit\n"
    "def team(m: pk.TeamMember, n: int, out: pk.View1D[pk.double]):\n"
    "    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(m.team_scratch(0), n)\n"
    "    def fill(j: int):\n"
    "        s[j] = j\n"
    "    pk.parallel_for(pk.TeamThreadRange(m, n), fill)\n"
    "    m.team_barrier()\n"
    "    out[m.league_rank()] = s[0]\n";

/* Reduction / reducer, random pools, team policy and scratch flags. */
static void test_summary_flags(void **state) {
  (void)state;
  pki_module *m = build(FLAGS);
  const pki_access_summary *red = pki_access_summarize(m, kernel(m, "red"));
  assert_true(red->reduction);
  assert_int_equal(red->reducer, PKI_REDUCER_SUM);
  assert_int_equal(red->acc_span.line, 5);
  const pki_access_summary *mx = pki_access_summarize(m, kernel(m, "mx"));
  assert_true(mx->reduction);
  assert_int_equal(mx->reducer, PKI_REDUCER_MAX);
  const pki_access_summary *draw = pki_access_summarize(m, kernel(m, "draw"));
  assert_true(draw->random);
  assert_false(draw->team);
  const pki_access_summary *team = pki_access_summarize(m, kernel(m, "team"));
  assert_true(team->team);
  assert_true(team->scratch);
  assert_false(team->unknown);
  /* a team kernel's work index is its league rank */
  expect_idx(find(team, "out", 24, PKI_MEM_WRITE), 0, PKI_IDX_IDENTITY, 0, 0);
  int n = 0;
  pki_access_summary **all = pki_access_summarize_module(m, &n);
  assert_int_equal(n, 4);
  assert_string_equal(all[3]->name, "team");
  pki_module_free(m);
}

/* ---------------------------------------------------- fusion rules */

static const char *STEPS =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workunit\n"
    "def update(i: int, u: pk.View1D[pk.double]):\n"
    "    u[i] = 2.0 * u[i]\n"                           /* 5 */
    "\n"
    "@pk.workunit\n"
    "def stencil(i: int, u: pk.View1D[pk.double], w: pk.View1D[pk.double]):\n"
    "    w[i] = u[i + 1] - u[i]\n"                      /* 9 */
    "\n"
    "@pk.workunit\n"
    "def scale(i: int, u: pk.View1D[pk.double], w: pk.View1D[pk.double]):\n"
    "    w[i] = 3.0 * u[i]\n"                           /* 13 */
    "\n"
    "@pk.workunit\n"
    "def shifted(i: int, x: pk.View1D[pk.double]):\n"
    "    x[i + 1] = 1.0\n"                              /* 17 */
    "\n"
    "@pk.workunit\n"
    "def plain(i: int, y: pk.View1D[pk.double]):\n"
    "    y[i] = 2.0\n";                                 /* 21 */

/* Read after write at the same point fuses. */
static void test_identity_raw_fuses(void **state) {
  (void)state;
  seq s = {.m = build(STEPS)};
  add_r(&s, "update", "u=1");
  add_r(&s, "scale", "u=1 w=2");
  add_r(&s, "update", "u=2"); /* writes w in place: read and written at i */
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_LEGAL);
  assert_int_equal(d.rule, PKI_FUSE_OK);
  assert_int_equal(d.prefix, 3);
  expect_reason(&s, &d, "fused: 'update', 'scale', 'update' over one launch domain");
  pki_module_free(s.m);
}

/* A neighbour read (i + 1) after a write does not fuse: the reason names
 * both kernels, the View, the indices and the lines. */
static void test_neighbour_raw_refused(void **state) {
  (void)state;
  seq s = {.m = build(STEPS)};
  add_r(&s, "update", "u=1");
  add_r(&s, "stencil", "u=1 w=2");
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_ILLEGAL);
  assert_int_equal(d.rule, PKI_FUSE_RAW);
  assert_int_equal(d.first, 0);
  assert_int_equal(d.second, 1);
  assert_int_equal(d.prefix, 1);
  assert_string_equal(d.name, "u");
  assert_int_equal(d.at_first.line, 5);
  assert_int_equal(d.at_second.line, 9);
  expect_reason(&s, &d,
                "not fused: kernel 'stencil' (line 9) reads 'u' at i + 1, which kernel "
                "'update' (line 5) writes at i (read after write across points)");
  /* the other order: the neighbour is read, then written */
  s.n = 0;
  add_r(&s, "stencil", "u=1 w=2");
  add_r(&s, "update", "u=1");
  d = check(&s);
  assert_int_equal(d.rule, PKI_FUSE_WAR);
  expect_reason(&s, &d,
                "not fused: kernel 'update' (line 5) writes 'u' at i, which kernel "
                "'stencil' (line 9) reads at i + 1 (write after read across points)");
  /* the stencil's input is another View: fine */
  s.n = 0;
  add_r(&s, "update", "u=1");
  add_r(&s, "stencil", "u=3 w=2");
  assert_int_equal(check(&s).verdict, PKI_FUSE_LEGAL);
  pki_module_free(s.m);
}

/* Different argument identities never conflict, even when both are written at
 * other points; the same identity (or none given) does. */
static void test_argument_identity(void **state) {
  (void)state;
  seq s = {.m = build(STEPS)};
  add_r(&s, "shifted", "x=1");
  add_r(&s, "plain", "y=2");
  assert_int_equal(check(&s).verdict, PKI_FUSE_LEGAL);
  s.n = 0;
  add_r(&s, "shifted", "x=1");
  add_r(&s, "plain", "y=1");
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_ILLEGAL);
  assert_int_equal(d.rule, PKI_FUSE_WAW);
  expect_reason(&s, &d,
                "not fused: kernel 'plain' (line 21) writes 'y' at i, which kernel 'shifted' "
                "(line 17) also writes 'x' at i + 1 (write after write across points)");
  s.n = 0;
  add_r(&s, "shifted", "x=1");
  add_r(&s, "plain", ""); /* unknown: may be x */
  assert_int_equal(check(&s).rule, PKI_FUSE_WAW);
  s.n = 0; /* the same shifted write in both: the same point */
  add_r(&s, "shifted", "x=1");
  add_r(&s, "shifted", "x=1");
  assert_int_equal(check(&s).verdict, PKI_FUSE_LEGAL);
  pki_module_free(s.m);
}

static const char *MD =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workunit\n"
    "def fill(i: int, j: int, a: pk.View2D[pk.double]):\n"
    "    a[i, j] = i + j\n"                              /* 5 */
    "\n"
    "@pk.workunit\n"
    "def copy(i: int, j: int, a: pk.View2D[pk.double], b: pk.View2D[pk.double]):\n"
    "    b[i, j] = a[i][j]\n"                            /* 9 */
    "\n"
    "@pk.workunit\n"
    "def transpose(i: int, j: int, a: pk.View2D[pk.double], b: pk.View2D[pk.double]):\n"
    "    b[i, j] = a[j][i]\n"                            /* 13 */
    "\n"
    "@pk.workunit\n"
    "def rows(i: int, n: int, a: pk.View2D[pk.double]):\n"
    "    for k in range(n):\n"
    "        a[i, k] = k\n"                              /* 18 */
    "\n"
    "@pk.workunit\n"
    "def first(i: int, a: pk.View2D[pk.double], c: pk.View1D[pk.double]):\n"
    "    c[i] = a[i, 0]\n"                               /* 22 */
    "\n"
    "def host(a, b):\n"
    "    p = pk.MDRangePolicy([0, 0], [4, 4])\n"
    "    pk.parallel_for(p, fill, a=a)\n"
    "    pk.parallel_for(p, copy, a=a, b=b)\n"
    "    pk.parallel_for(p, transpose, a=a, b=b)\n";

/* MDRange: per-dimension identity in the same order fuses, a transposed
 * access does not; in a range, a row pinned by i fuses whatever the column. */
static void test_mdrange_transposed(void **state) {
  (void)state;
  seq s = {.m = build(MD)};
  add(&s, "fill", PKI_POLICY_MDRANGE, 2, PKI_BOUNDS_SAME, "a=1");
  add(&s, "copy", PKI_POLICY_MDRANGE, 2, PKI_BOUNDS_SAME, "a=1 b=2");
  assert_int_equal(check(&s).verdict, PKI_FUSE_LEGAL);
  const pki_access *tr;
  s.n = 0;
  add(&s, "fill", PKI_POLICY_MDRANGE, 2, PKI_BOUNDS_SAME, "a=1");
  add(&s, "transpose", PKI_POLICY_MDRANGE, 2, PKI_BOUNDS_SAME, "a=1 b=2");
  tr = find(s.k[1].sum, "a", 13, PKI_MEM_READ);
  expect_idx(tr, 0, PKI_IDX_IDENTITY, 1, 0);
  expect_idx(tr, 1, PKI_IDX_IDENTITY, 0, 0);
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_ILLEGAL);
  assert_int_equal(d.rule, PKI_FUSE_RAW);
  expect_reason(&s, &d,
                "not fused: kernel 'transpose' (line 13) reads 'a' at [j, i], which kernel "
                "'fill' (line 5) writes at [i, j] (read after write across points)");
  s.n = 0;
  add_r(&s, "rows", "a=1");
  add_r(&s, "first", "a=1 c=2");
  assert_int_equal(check(&s).verdict, PKI_FUSE_LEGAL);
  pki_module_free(s.m);
}

static const char *SCATTER =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workunit\n"
    "def scatter(i: int, idx: pk.View1D[pk.int32], a: pk.View1D[pk.double],\n"
    "            v: pk.View1D[pk.double]):\n"
    "    v[idx[i]] = a[i]\n"                             /* 6 */
    "\n"
    "@pk.workunit\n"
    "def use(i: int, v: pk.View1D[pk.double], b: pk.View1D[pk.double]):\n"
    "    b[i] = v[i]\n";                                 /* 10 */

/* An indirect write v[idx[i]] does not fuse with a read of v. */
static void test_indirect_write_refused(void **state) {
  (void)state;
  seq s = {.m = build(SCATTER)};
  add_r(&s, "scatter", "idx=1 a=2 v=3");
  add_r(&s, "use", "v=3 b=4");
  expect_idx(find(s.k[0].sum, "v", 6, PKI_MEM_WRITE), 0, PKI_IDX_INDIRECT, 0, 0);
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.rule, PKI_FUSE_RAW);
  expect_reason(&s, &d,
                "not fused: kernel 'use' (line 10) reads 'v' at i, which kernel 'scatter' "
                "(line 6) writes at idx[i] (read after write across points)");
  s.n = 0; /* scatter into another View: fine */
  add_r(&s, "scatter", "idx=1 a=2 v=5");
  add_r(&s, "use", "v=3 b=4");
  assert_int_equal(check(&s).verdict, PKI_FUSE_LEGAL);
  pki_module_free(s.m);
}

static const char *ATOMICS =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workunit\n"
    "def hist(i: int, h: pk.View1D[pk.int32]):\n"
    "    pk.atomic_add(h, [i % 4], 1)\n"                  /* 5 */
    "\n"
    "@pk.workunit\n"
    "def hist2(i: int, h: pk.View1D[pk.int32]):\n"
    "    pk.atomic_increment(h, [i % 3])\n"               /* 9 */
    "\n"
    "@pk.workunit\n"
    "def slot(i: int, h: pk.View1D[pk.int32], out: pk.View1D[pk.int32]):\n"
    "    out[i] = pk.atomic_fetch_add(h, [0], 1)\n"       /* 13 */
    "\n"
    "@pk.workunit\n"
    "def read(i: int, h: pk.View1D[pk.int32], out: pk.View1D[pk.int32]):\n"
    "    out[i] = h[i]\n";                                /* 17 */

/* An atomic update feeding a later read does not fuse; commuting atomic
 * updates of the same View do, unless an old value is used. */
static void test_atomic(void **state) {
  (void)state;
  seq s = {.m = build(ATOMICS)};
  add_r(&s, "hist", "h=1");
  add_r(&s, "read", "h=1 out=2");
  const pki_access *at = find(s.k[0].sum, "h", 5, ATOMIC_RW);
  assert_int_equal(at->atomic, PKI_ATOMIC_SUM);
  assert_false(at->mode & PKI_MEM_FETCH);
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_ILLEGAL);
  assert_int_equal(d.rule, PKI_FUSE_ATOMIC);
  expect_reason(&s, &d,
                "not fused: kernel 'read' (line 17) reads 'h' at i, which kernel 'hist' "
                "(line 5) updates atomically at i % 4 (an atomic update must finish before "
                "another kernel uses the View)");
  s.n = 0;
  add_r(&s, "hist", "h=1");
  add_r(&s, "hist2", "h=1");
  assert_int_equal(check(&s).verdict, PKI_FUSE_LEGAL);
  s.n = 0;
  add_r(&s, "hist", "h=1");
  add_r(&s, "slot", "h=1 out=2");
  find(s.k[1].sum, "h", 13, ATOMIC_RW | PKI_MEM_FETCH); /* the old value is used */
  assert_int_equal(check(&s).rule, PKI_FUSE_ATOMIC);
  pki_module_free(s.m);
}

static const char *SCAN =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workunit\n"
    "def init(i: int, a: pk.View1D[pk.double]):\n"
    "    a[i] = 1.0\n"
    "\n"
    "@pk.workunit\n"
    "def psum(i: int, acc: pk.Acc[pk.double], final: bool, a: pk.View1D[pk.double],\n"
    "         s: pk.View1D[pk.double]):\n"
    "    acc += a[i]\n"
    "    if final:\n"
    "        s[i] = acc\n";

/* A scan is a barrier: it fuses with nothing, before or after. */
static void test_scan_barrier(void **state) {
  (void)state;
  seq s = {.m = build(SCAN)};
  add_r(&s, "init", "a=1");
  add_r(&s, "psum", "a=2 s=3");
  assert_true(s.k[1].sum->scan);
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_ILLEGAL);
  assert_int_equal(d.rule, PKI_FUSE_SCAN);
  assert_int_equal(d.first, 1);
  assert_int_equal(d.second, -1);
  assert_int_equal(d.prefix, 1);
  expect_reason(&s, &d,
                "not fused: kernel 'psum' (line 8) is a parallel_scan; scans are never fused");
  s.n = 0;
  add_r(&s, "psum", "a=2 s=3");
  add_r(&s, "init", "a=1");
  d = check(&s);
  assert_int_equal(d.rule, PKI_FUSE_SCAN);
  assert_int_equal(d.first, 0);
  assert_int_equal(d.prefix, 1);
  s.n = 0; /* alone: nothing to fuse */
  add_r(&s, "psum", "a=2 s=3");
  assert_int_equal(check(&s).verdict, PKI_FUSE_LEGAL);
  pki_module_free(s.m);
}

static const char *REDUCE =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workunit\n"
    "def total(i: int, acc: pk.Acc[pk.double], a: pk.View1D[pk.double]):\n"
    "    acc += a[i]\n"                                   /* 5 */
    "\n"
    "@pk.workunit\n"
    "def norm2(i: int, acc: pk.Acc[pk.double], b: pk.View1D[pk.double]):\n"
    "    acc += b[i] * b[i]\n"
    "\n"
    "@pk.workunit\n"
    "def biggest(i: int, acc: pk.Max[pk.double], a: pk.View1D[pk.double]):\n"
    "    acc = max(acc, a[i])\n"
    "\n"
    "@pk.workunit\n"
    "def normalize(i: int, t: float, a: pk.View1D[pk.double], b: pk.View1D[pk.double]):\n"
    "    b[i] = a[i] / t\n";                              /* 17 */

/* Reductions fuse with each other and with kernels at the same points. */
static void test_reductions_fuse(void **state) {
  (void)state;
  seq s = {.m = build(REDUCE)};
  add_r(&s, "total", "a=1");
  add_r(&s, "norm2", "b=2");
  add_r(&s, "biggest", "a=1");
  add_r(&s, "normalize", "a=1 b=3");
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_LEGAL);
  assert_int_equal(d.prefix, 4);
  pki_module_free(s.m);
}

/* A kernel reading an earlier reduction's result does not fuse with it. */
static void test_reduction_result_refused(void **state) {
  (void)state;
  seq s = {.m = build(REDUCE)};
  add_r(&s, "total", "a=1");
  add_r(&s, "normalize", "a=1 b=3");
  add_input(&s, "t", 0);
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_ILLEGAL);
  assert_int_equal(d.rule, PKI_FUSE_RESULT);
  assert_string_equal(d.name, "t");
  expect_reason(&s, &d,
                "not fused: kernel 'normalize' (line 17) reads 't', the result of reduction "
                "kernel 'total' (line 5), known only once 'total' has finished");
  s.n = 0; /* a result of a kernel outside the sequence */
  add_r(&s, "total", "a=1");
  add_r(&s, "normalize", "a=1 b=3");
  add_input(&s, "t", 7);
  assert_int_equal(check(&s).verdict, PKI_FUSE_LEGAL);
  pki_module_free(s.m);
}

/* Launch domains: another policy kind or different bounds do not fuse;
 * bounds known only at run time give a conditional yes. */
static void test_launch_domain(void **state) {
  (void)state;
  seq s = {.m = build(MD)};
  add_r(&s, "rows", "a=1");
  add(&s, "fill", PKI_POLICY_MDRANGE, 2, PKI_BOUNDS_SAME, "a=2");
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_ILLEGAL);
  assert_int_equal(d.rule, PKI_FUSE_POLICY);
  expect_reason(&s, &d,
                "not fused: kernel 'fill' (line 4) runs over an MDRange of rank 2 but kernel "
                "'rows' (line 16) over a range (launch domains differ)");
  s.n = 0;
  add_r(&s, "rows", "a=1");
  add(&s, "first", PKI_POLICY_RANGE, 1, PKI_BOUNDS_DIFFERENT, "a=1 c=2");
  d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_ILLEGAL);
  assert_int_equal(d.rule, PKI_FUSE_BOUNDS);
  expect_reason(&s, &d,
                "not fused: kernel 'first' (line 21) has bounds different from those of "
                "kernel 'rows' (line 16) (launch domains differ)");
  pki_module_free(s.m);
}

static void test_bounds_unknown(void **state) {
  (void)state;
  seq s = {.m = build(STEPS)};
  add_r(&s, "update", "u=1");
  add(&s, "scale", PKI_POLICY_RANGE, 1, PKI_BOUNDS_UNKNOWN, "u=1 w=2");
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_LEGAL_IF_BOUNDS_EQUAL);
  assert_int_equal(d.rule, PKI_FUSE_BOUNDS);
  assert_int_equal(d.prefix, 2);
  expect_reason(&s, &d,
                "fused only if the bounds of kernel 'scale' (line 12) equal those of kernel "
                "'update' (line 4) at run time");
  /* a conflict further on still makes the whole sequence illegal */
  add_r(&s, "stencil", "u=1 w=3");
  d = check(&s);
  assert_int_equal(d.verdict, PKI_FUSE_ILLEGAL);
  assert_int_equal(d.rule, PKI_FUSE_RAW);
  assert_int_equal(d.prefix, 2);
  pki_module_free(s.m);
}

static const char *TEAM =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workunit\n"
    "def init(i: int, a: pk.View1D[pk.double]):\n"
    "    a[i] = 1.0\n"
    "\n"
    "@pk.workunit\n"
    "def rowsum(m: pk.TeamMember, n: int, a: pk.View1D[pk.double]):\n"
    "    r: int = m.league_rank()\n"
    "    a[r] = a[r] + n\n";

/* Team-policy kernels are not fused. */
static void test_team_refused(void **state) {
  (void)state;
  seq s = {.m = build(TEAM)};
  add_r(&s, "init", "a=1");
  add(&s, "rowsum", PKI_POLICY_TEAM, 1, PKI_BOUNDS_SAME, "a=1");
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.rule, PKI_FUSE_TEAM);
  expect_reason(&s, &d,
                "not fused: kernel 'rowsum' (line 8) runs over a TeamPolicy; team kernels "
                "are not fused");
  pki_module_free(s.m);
}

static const char *FUNCTOR =
    "import pykokkos as pk\n"
    "\n"
    "@pk.functor\n"
    "class F:\n"
    "    def __init__(self, u: pk.View1D[pk.double], w: pk.View1D[pk.double]):\n"
    "        self.u: pk.View1D[pk.double] = u\n"
    "        self.w: pk.View1D[pk.double] = w\n"
    "\n"
    "    @pk.function\n"
    "    def right(self, k: int) -> float:\n"
    "        return self.u[k + 1]\n"                       /* 11 */
    "\n"
    "    @pk.function\n"
    "    def get(self, v: pk.View1D[pk.double], k: int) -> float:\n"
    "        return self.right(k) + v[k]\n"                /* 15 */
    "\n"
    "    @pk.workunit\n"
    "    def update(self, i: int):\n"
    "        self.u[i] = 1.0\n"                            /* 19 */
    "\n"
    "    @pk.workunit\n"
    "    def smooth(self, i: int):\n"
    "        self.w[i] = self.get(self.w, i)\n";           /* 23 */

/* Calls into @pk.function device functions are followed (members and
 * View parameters bound to the call's arguments). */
static void test_device_functions_followed(void **state) {
  (void)state;
  seq s = {.m = build(FUNCTOR)};
  add_r(&s, "update", "u=1");
  add_r(&s, "smooth", "u=1 w=2");
  const pki_access_summary *sm = s.k[1].sum;
  assert_true(sm->calls);
  assert_false(sm->unknown);
  const pki_access *r = find(sm, "u", 11, PKI_MEM_READ);
  expect_idx(r, 0, PKI_IDX_OFFSET, 0, 1);
  assert_string_equal(r->callee, "right");
  assert_int_equal(r->call.line, 23);
  const pki_access *wv = find(sm, "w", 15, PKI_MEM_READ); /* v bound to self.w */
  expect_idx(wv, 0, PKI_IDX_IDENTITY, 0, 0);
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.rule, PKI_FUSE_RAW);
  expect_reason(&s, &d,
                "not fused: kernel 'smooth' (line 11, in 'right' called at line 23) reads 'u' "
                "at i + 1, which kernel 'update' (line 19) writes at i (read after write "
                "across points)");
  pki_module_free(s.m);
}

static const char *CALLS =
    "import pykokkos as pk\n"
    "\n"
    "@pk.function\n"
    "def f(v: pk.View1D[pk.double], k: int) -> float:\n"
    "    return v[k]\n"
    "\n"
    "@pk.workunit\n"
    "def g(i: int, v: pk.View1D[pk.double]):\n"
    "    v[i] = f(v, i)\n"
    "\n"
    "@pk.workunit\n"
    "def h(i: int, v: pk.View1D[pk.double]):\n"
    "    v[i] = 0.0\n";

/* A recursive device function (made by hand: pki_check rejects it) makes
 * the summary unknown, and the kernel is not fused. */
static void test_recursion_unknown(void **state) {
  (void)state;
  seq s = {.m = build(CALLS)};
  pki_func *f = kernel(s.m, "f");
  pki_func *g = kernel(s.m, "g");
  const pki_expr *call = g->body.stmts[0]->value;
  assert_int_equal(call->kind, PKI_E_CALL);
  pki_stmt *again = pki_new_stmt(s.m, PKI_S_EXPR, f->body.stmts[0]->span);
  again->value = (pki_expr *)call; /* f(v, i) inside f: v and i are f's own here */
  pki_block_push(s.m->arena, &f->body, again);
  add_r(&s, "h", "v=1");
  add_r(&s, "g", "v=1");
  assert_true(s.k[1].sum->unknown);
  pki_fuse_decision d = check(&s);
  assert_int_equal(d.rule, PKI_FUSE_UNKNOWN);
  expect_reason(&s, &d,
                "not fused: the accesses of kernel 'g' are not known (line 9: 'f' is "
                "recursive)");
  pki_module_free(s.m);
}

static const char *WORKLOAD =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workload\n"
    "class W:\n"
    "    def __init__(self, n: int):\n"
    "        self.n: int = n\n"
    "        self.A: pk.View1D[pk.double] = pk.View([n], pk.double)\n"
    "        self.s: float = 0.0\n"
    "\n"
    "    @pk.main\n"
    "    def run(self):\n"
    "        pk.parallel_for(self.n, self.init)\n"
    "        self.s = pk.parallel_reduce(self.n, lambda i, acc: acc + self.A[i] * self.n)\n"
    "\n"
    "    @pk.workunit\n"
    "    def init(self, i: int):\n"
    "        self.A[i] = i\n";

/* Workload workunits and @pk.main lambdas are kernels; they fuse here. */
static void test_workload_lambda(void **state) {
  (void)state;
  pki_module *m = build(WORKLOAD);
  int n = 0;
  pki_access_summary **all = pki_access_summarize_module(m, &n);
  assert_int_equal(n, 2);
  /* entity order: @pk.main (and its lambda) comes before init */
  assert_string_equal(all[0]->name, "run_lambda0");
  assert_true(all[0]->reduction);
  assert_string_equal(all[1]->name, "init");
  assert_int_equal(all[0]->scalars.n, 1); /* self.n */
  assert_string_equal(PKI_AT(all[0]->scalars, 0, pki_scalar_read)->var->name, "n");
  const pki_var *a = pki_entity_member(m->entities[0], "A");
  pki_fuse_view v0[] = {{a, 1}}, v1[] = {{a, 1}};
  pki_fuse_kernel ks[] = {{.sum = all[1], .views = v0, .nviews = 1},
                          {.sum = all[0], .views = v1, .nviews = 1}};
  expect_idx(find(all[0], "A", 13, PKI_MEM_READ), 0, PKI_IDX_IDENTITY, 0, 0);
  assert_int_equal(pki_fuse_check(ks, 2).verdict, PKI_FUSE_LEGAL);
  pki_module_free(m);
}

/* ------------------------------------------------ the plan of @pk.main */

#define ENERGIES                                                              \
  "import pykokkos as pk\n"                                                   \
  "@pk.workload\n"                                                            \
  "class MD:\n"                                                               \
  "    def __init__(self, n: int):\n"                                         \
  "        self.n: int = n\n"                                                 \
  "        self.m: int = n\n"                                                 \
  "        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)\n"          \
  "        self.v: pk.View1D[pk.double] = pk.View([n], pk.double)\n"          \
  "        self.w: pk.View1D[pk.double] = pk.View([n], pk.double)\n"          \
  "        self.ke: float = 0.0\n"                                            \
  "        self.pe: float = 0.0\n"                                            \
  "        self.top: int = 0\n"                                               \
  "\n"                                                                        \
  "    @pk.main\n"                                                            \
  "    def run(self):\n"                                                      \
  "%s"                                                                        \
  "\n"                                                                        \
  "    @pk.workunit\n"                                                        \
  "    def kinetic(self, i: int, acc: pk.Acc[pk.double]):\n"                  \
  "        acc += 0.5 * self.v[i] * self.v[i]\n"                              \
  "\n"                                                                        \
  "    @pk.workunit\n"                                                        \
  "    def potential(self, i: int, acc: pk.Acc[pk.double]):\n"                \
  "        acc += self.x[i] * self.x[i]\n"                                    \
  "\n"                                                                        \
  "    @pk.workunit\n"                                                        \
  "    def fastest(self, i: int, acc: pk.Max[pk.int64]):\n"                   \
  "        acc = max(acc, int(self.v[i]))\n"                                  \
  "\n"                                                                        \
  "    @pk.workunit\n"                                                        \
  "    def relative(self, i: int, acc: pk.Acc[pk.double]):\n"                \
  "        acc += self.v[i] / self.ke\n"                                      \
  "\n"                                                                        \
  "    @pk.workunit\n"                                                        \
  "    def drift(self, i: int):\n"                                            \
  "        self.x[i] += self.v[i]\n"                                          \
  "\n"                                                                        \
  "    @pk.workunit\n"                                                        \
  "    def clear_w(self, i: int):\n"                                          \
  "        self.w[i] = 0.0\n"

/* The plan of ENERGIES with `main` (lines 16-) as @pk.main's body. */
static pki_module *plan_main(const char *main) {
  char src[4096];
  snprintf(src, sizeof src, ENERGIES, main);
  pki_module *m = build(src);
  pki_fusion_plan_module(m);
  return m;
}

/* The note of the chain at `line`, fused or not with the rule. */
static void expect_note(const pki_module *m, unsigned line, bool fused, const char *rule) {
  for (int i = 0; i < m->fusion->notes.n; i++) {
    const pki_fusion_note *n = PKI_AT(m->fusion->notes, i, pki_fusion_note);
    if (n->at.line != line || n->fused != fused)
      continue;
    if (strcmp(n->rule, rule))
      fail_msg("note at line %u: rule %s, want %s (%s)", line, n->rule, rule, n->text);
    return;
  }
  fail_msg("no %s note at line %u", fused ? "fused" : "not fused", line);
}

static const pki_fused *main_group(const pki_module *m, int i) {
  assert_true(i < m->fusion->groups.n);
  return PKI_AT(m->fusion->groups, i, pki_fused);
}

/* Several reductions (sum, max; float64 and int64) in one kernel. */
static void test_plan_reductions_fuse(void **state) {
  (void)state;
  pki_module *m = plan_main("        pk.parallel_for(self.n, self.drift)\n"              /* 16 */
                            "        self.ke = pk.parallel_reduce(self.n, self.kinetic)\n" /* 17 */
                            "        self.pe = pk.parallel_reduce(self.n, self.potential)\n"
                            "        self.top = pk.parallel_reduce(self.n, self.fastest)\n");
  assert_int_equal(m->fusion->groups.n, 1);
  assert_int_equal(main_group(m, 0)->n, 4);
  expect_note(m, 16, true, "ok");
  const pki_fusion_note *n = PKI_AT(m->fusion->notes, 0, pki_fusion_note);
  assert_non_null(strstr(n->text, "computing their 3 reductions in one pass"));
  pki_module_free(m);
}

/* The plan of `main` has ngroups fused kernels and a note at line. */
static void expect_plan(const char *main, int ngroups, unsigned line, bool fused,
                        const char *rule) {
  pki_module *m = plan_main(main);
  assert_int_equal(m->fusion->groups.n, ngroups);
  expect_note(m, line, fused, rule);
  pki_module_free(m);
}

/* A reduction reading an earlier one's result is not in its kernel. */
static void test_plan_reduction_result_refused(void **state) {
  (void)state;
  expect_plan("        self.ke = pk.parallel_reduce(self.n, self.kinetic)\n"     /* 16 */
              "        self.pe = pk.parallel_reduce(self.n, self.relative)\n",   /* 17 */
              0, 17, false, "result");
}

/* Reductions sharing no View fuse over the same bounds (one launch). */
static void test_plan_reductions_share_launch(void **state) {
  (void)state;
  expect_plan("        self.ke = pk.parallel_reduce(self.n, self.kinetic)\n"     /* 16 */
              "        self.pe = pk.parallel_reduce(self.n, self.potential)\n",  /* 17 */
              1, 16, true, "ok");
}

/* ... but not over other bounds, and a parallel_for sharing no View
 * does not join a reduction. */
static void test_plan_share_launch_refused(void **state) {
  (void)state;
  pki_module *m = plan_main("        self.ke = pk.parallel_reduce(self.n, self.kinetic)\n"    /* 16 */
                            "        self.pe = pk.parallel_reduce(self.m, self.potential)\n"  /* 17 */
                            "        pk.fence()\n"                                            /* 18 */
                            "        self.ke = pk.parallel_reduce(self.n, self.kinetic)\n"    /* 19 */
                            "        pk.parallel_for(self.n, self.clear_w)\n");                /* 20 */
  assert_int_equal(m->fusion->groups.n, 0);
  expect_note(m, 17, false, "profit");
  expect_note(m, 20, false, "profit");
  pki_module_free(m);
}

/* The profitability rule's shared point: every index the same work index,
 * unshifted (not a shared row, not a row and a column, not transposed). */
static void test_same_point(void **state) {
  (void)state;
  const pki_idx id0 = {.kind = PKI_IDX_IDENTITY, .work = 0};
  const pki_idx id1 = {.kind = PKI_IDX_IDENTITY, .work = 1};
  const pki_idx loop = {.kind = PKI_IDX_INDEPENDENT};
  const pki_idx tri = {.kind = PKI_IDX_NONAFFINE, .works = 1}; /* j in range(i + 1) */
  const pki_idx next = {.kind = PKI_IDX_OFFSET, .work = 0, .offset = 1};
  pki_access point = {.rank = 1, .idx = {id0}}, shifted = {.rank = 1, .idx = {next}};
  pki_access row = {.rank = 2, .idx = {id0, loop}}, row_tri = {.rank = 2, .idx = {id0, tri}};
  pki_access col = {.rank = 2, .idx = {loop, id0}}, md = {.rank = 2, .idx = {id0, id1}};
  pki_access md_t = {.rank = 2, .idx = {id1, id0}};
  assert_true(pki_same_point(&point, &point));
  assert_false(pki_same_point(&point, &shifted));
  assert_false(pki_same_point(&row, &row_tri));  /* syrk: row i of C only */
  assert_false(pki_same_point(&row, &col));      /* mvt: a row of A, a column of A */
  assert_false(pki_same_point(&point, &row));    /* ranks differ */
  assert_true(pki_same_point(&md, &md));
  assert_false(pki_same_point(&md, &md_t));      /* transposed */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_point),
      cmocka_unit_test(test_summary_index_kinds),
      cmocka_unit_test(test_summary_flags),
      cmocka_unit_test(test_identity_raw_fuses),
      cmocka_unit_test(test_neighbour_raw_refused),
      cmocka_unit_test(test_argument_identity),
      cmocka_unit_test(test_mdrange_transposed),
      cmocka_unit_test(test_indirect_write_refused),
      cmocka_unit_test(test_atomic),
      cmocka_unit_test(test_scan_barrier),
      cmocka_unit_test(test_reductions_fuse),
      cmocka_unit_test(test_reduction_result_refused),
      cmocka_unit_test(test_launch_domain),
      cmocka_unit_test(test_bounds_unknown),
      cmocka_unit_test(test_team_refused),
      cmocka_unit_test(test_device_functions_followed),
      cmocka_unit_test(test_recursion_unknown),
      cmocka_unit_test(test_workload_lambda),
      cmocka_unit_test(test_plan_reductions_fuse),
      cmocka_unit_test(test_plan_reduction_result_refused),
      cmocka_unit_test(test_plan_reductions_share_launch),
      cmocka_unit_test(test_plan_share_launch_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
