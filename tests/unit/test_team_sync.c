/* test_team_sync.c - pki_team_sync (ir/team_sync.c, issue 23): team
 * collectives under team_rank() branches are hoisted or rejected, barriers
 * go after nested parallel_for writes other threads read, and non-atomic
 * scatters get a possible-race warning. Python source -> IR -> pki_check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "frontend_test_util.h"

/* Lowers and checks src; *d gets the diagnostics (caller frees the module). */
static pki_module *checked(const char *src, pki_diags *d) {
  pki_module *m = lower(src, d);
  assert_int_equal(d->errors, 0);
  pki_check(m, d);
  return m;
}

/* How many diagnostics of severity sev and code there are. */
static int count(const pki_diags *d, pki_severity sev, const char *code) {
  int n = 0;
  for (int i = 0; i < d->n; i++)
    n += d->items[i].severity == sev && strcmp(d->items[i].code, code) == 0;
  return n;
}

/* The diagnostic with this code at line:col; fails if none. */
static const pki_diag *at(const pki_diags *d, const char *code, unsigned line, unsigned col) {
  for (int i = 0; i < d->n; i++)
    if (!strcmp(d->items[i].code, code) && d->items[i].span.line == line &&
        d->items[i].span.col == col)
      return &d->items[i];
  for (int i = 0; i < d->n; i++)
    print_error("  have %u:%u [%s] %s\n", d->items[i].span.line, d->items[i].span.col,
                d->items[i].code, d->items[i].message);
  fail_msg("no %s at %u:%u", code, line, col);
  return NULL;
}

static bool is_barrier(const pki_stmt *s) {
  return s->kind == PKI_S_EXPR && s->value && s->value->kind == PKI_E_INTRINSIC &&
         s->value->intrinsic == PKI_INTRINSIC_TEAM_BARRIER;
}

static int barriers_in(const pki_block *b) {
  int n = 0;
  for (int i = 0; i < b->n; i++)
    n += is_barrier(b->stmts[i]);
  return n;
}

static pki_func *first_func(pki_module *m) { return m->entities[0]->funcs[0]; }

/* ---------------------------------------------------- rule 1: hoisting */

static const char *HOIST =
    "import pykokkos as pk\n"
    "@pk.workunit\n"
    "def k(tm: pk.TeamMember, out: pk.View1D[pk.int32], M: int):\n"
    "    j: int = tm.league_rank()\n"
    "    if tm.team_rank() == 0:\n"
    "        def inner(i: int, acc: pk.Acc[pk.int32]):\n"
    "            acc += 1\n"
    "        temp = pk.parallel_reduce(pk.TeamThreadRange(tm, M), inner)\n"
    "        out[j] = temp\n";

static void test_hoist_reduce(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked(HOIST, &d);
  assert_int_equal(d.errors, 0);
  pki_func *f = first_func(m);
  /* j, temp's declaration, the reduction, then `if`: out[j] = temp */
  assert_int_equal(f->body.n, 4);
  assert_int_equal(f->body.stmts[1]->kind, PKI_S_DECL);
  assert_string_equal(f->body.stmts[1]->var->name, "temp");
  assert_int_equal(f->body.stmts[2]->kind, PKI_S_NESTED);
  pki_stmt *g = f->body.stmts[3];
  assert_int_equal(g->kind, PKI_S_IF);
  assert_int_equal(g->body.n, 1);
  assert_int_equal(g->body.stmts[0]->kind, PKI_S_ASSIGN);
  const pki_diag *n = at(&d, "team-hoist", 8, 16);
  assert_int_equal(n->severity, PKI_SEV_NOTE);
  assert_non_null(strstr(n->message, "out of the `if` at line 5"));
  pki_module_free(m);
}

/* The range depends on a value the branch computes: not moved, an error. */
static void test_no_hoist_branch_dependent(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, out: pk.View1D[pk.int32], M: int):\n"
                          "    j: int = tm.league_rank()\n"
                          "    if tm.team_rank() == 0:\n"
                          "        n2: int = M * 2\n"
                          "        def inner(i: int, acc: pk.Acc[pk.int32]):\n"
                          "            acc += 1\n"
                          "        temp = pk.parallel_reduce(pk.TeamThreadRange(tm, n2), inner)\n"
                          "        out[j] = temp\n",
                          &d);
  const pki_diag *e = at(&d, "divergent-collective", 9, 16);
  assert_int_equal(e->severity, PKI_SEV_ERROR);
  assert_non_null(strstr(e->message, "reads a value the branch computes before it"));
  assert_non_null(strstr(e->message, "pk.single"));
  assert_int_equal(count(&d, PKI_SEV_NOTE, "team-hoist"), 0);
  pki_func *f = first_func(m);
  assert_int_equal(f->body.n, 2); /* j, the `if` as written */
  pki_module_free(m);
}

/* A branch on league_rank() is the same for the whole team: nothing moves;
 * the same branch on team_rank() is moved. */
static void test_uniform_branch_kept(void **state) {
  (void)state;
  const char *fmt = "import pykokkos as pk\n"
                    "@pk.workunit\n"
                    "def k(tm: pk.TeamMember, out: pk.View1D[pk.int32], M: int):\n"
                    "    j: int = tm.league_rank()\n"
                    "    r: int = %s %% 2\n"
                    "    if r == 0:\n"
                    "        def inner(i: int, acc: pk.Acc[pk.int32]):\n"
                    "            acc += 1\n"
                    "        temp = pk.parallel_reduce(pk.TeamThreadRange(tm, M), inner)\n"
                    "        out[j] = temp\n";
  char src[1024];
  pki_diags d;
  snprintf(src, sizeof src, fmt, "j");
  pki_module *m = checked(src, &d);
  assert_int_equal(d.n, 0);
  assert_int_equal(first_func(m)->body.n, 3);
  pki_module_free(m);
  snprintf(src, sizeof src, fmt, "tm.team_rank()");
  m = checked(src, &d);
  at(&d, "team-hoist", 9, 16);
  assert_int_equal(first_func(m)->body.n, 5); /* j, r, temp, the reduction, the `if` */
  pki_module_free(m);
}

/* A value derived from team_rank() is thread-dependent too; a barrier
 * between guarded statements splits the `if` around it. */
static void test_hoist_barrier_derived(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, out: pk.View1D[pk.int32]):\n"
                          "    j: int = tm.league_rank()\n"
                          "    r: int = tm.team_rank() + 1\n"
                          "    if r == 1:\n"
                          "        out[j] = 1\n"
                          "        tm.team_barrier()\n"
                          "        out[j] += 1\n",
                          &d);
  assert_int_equal(d.errors, 0);
  at(&d, "team-hoist", 8, 9);
  pki_func *f = first_func(m);
  /* j, r, if: out[j] = 1, barrier, if: out[j] += 1 */
  assert_int_equal(f->body.n, 5);
  assert_int_equal(f->body.stmts[2]->kind, PKI_S_IF);
  assert_true(is_barrier(f->body.stmts[3]));
  assert_int_equal(f->body.stmts[4]->kind, PKI_S_IF);
  assert_int_equal(f->body.stmts[4]->body.stmts[0]->kind, PKI_S_AUGASSIGN);
  pki_module_free(m);
}

/* A parallel_for writing a View under `team_rank() < 2` would write again
 * on other threads if moved: rejected. */
static void test_no_hoist_effects(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, out: pk.View2D[pk.int32], M: int):\n"
                          "    j: int = tm.league_rank()\n"
                          "    if tm.team_rank() < 2:\n"
                          "        def inner(i: int):\n"
                          "            out[j][i] += 1\n"
                          "        pk.parallel_for(pk.TeamThreadRange(tm, M), inner)\n",
                          &d);
  const pki_diag *e = at(&d, "divergent-collective", 8, 9);
  assert_non_null(strstr(e->message, "has effects of its own"));
  pki_module_free(m);
}

/* A loop whose trip count depends on the thread. */
static void test_divergent_loop(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, out: pk.View1D[pk.int32]):\n"
                          "    for s in range(tm.team_rank()):\n"
                          "        tm.team_barrier()\n",
                          &d);
  const pki_diag *e = at(&d, "divergent-collective", 5, 9);
  assert_non_null(strstr(e->message, "loop at line 4"));
  pki_module_free(m);
}

/* Threads that returned early never reach the barrier. */
static void test_early_return(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, out: pk.View1D[pk.int32]):\n"
                          "    if tm.team_rank() > 0:\n"
                          "        return\n"
                          "    tm.team_barrier()\n",
                          &d);
  const pki_diag *e = at(&d, "divergent-collective", 6, 5);
  assert_non_null(strstr(e->message, "`if` at line 4"));
  pki_module_free(m);
}

/* A continue under a team_rank() test skips the loop's barrier on some
 * threads; a break out of a loop inside the branch, or out of a loop with no
 * collective in it, skips nothing. */
static void test_divergent_exit(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, x: pk.View1D[pk.int32], n: int):\n"
                          "    if tm.team_rank() == 0:\n"
                          "        for k in range(n):\n"
                          "            if x[k] > 0:\n"
                          "                break\n"
                          "    tm.team_barrier()\n"
                          "    for k in range(n):\n"
                          "        if tm.team_rank() == k:\n"
                          "            break\n"
                          "    tm.team_barrier()\n"
                          "    for k in range(n):\n"
                          "        if tm.team_rank() == k:\n"
                          "            continue\n"
                          "        tm.team_barrier()\n",
                          &d);
  assert_int_equal(count(&d, PKI_SEV_ERROR, "divergent-collective"), 1);
  const pki_diag *e = at(&d, "divergent-collective", 16, 9);
  assert_non_null(strstr(e->message, "loop at line 13"));
  pki_module_free(m);
}

/* ---------------------------------------------------- rule 2: barriers */

static const char *RAW =
    "import pykokkos as pk\n"
    "@pk.workunit\n"
    "def k(tm: pk.TeamMember, y: pk.View2D[pk.int32], out: pk.View1D[pk.int32], N: int):\n"
    "    j: int = tm.league_rank()\n"
    "    def inner_for(i: int):\n"
    "        y[j][i] = i\n"
    "    pk.parallel_for(pk.TeamThreadRange(tm, N), inner_for)\n"
    "    if tm.team_rank() == 0:\n"
    "        out[j] = y[j][j]\n";

static void test_barrier_inserted(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked(RAW, &d);
  pki_func *f = first_func(m);
  /* j, the parallel_for, the barrier, the `if` */
  assert_int_equal(f->body.n, 4);
  assert_true(is_barrier(f->body.stmts[2]));
  assert_ptr_equal(f->body.stmts[2]->value->args[0]->var, f->index[0]);
  const pki_diag *n = at(&d, "team-barrier", 8, 5);
  assert_int_equal(n->severity, PKI_SEV_NOTE);
  assert_non_null(strstr(n->message, "'y'"));
  assert_non_null(strstr(n->message, "line 7"));
  pki_module_free(m);
}

/* A later loop over the same range reading the element the same thread
 * wrote needs no barrier; one at another element does. */
static void test_own_element_no_barrier(void **state) {
  (void)state;
  const char *src_fmt =
      "import pykokkos as pk\n"
      "@pk.workunit\n"
      "def k(tm: pk.TeamMember, y: pk.View2D[pk.int32], N: int):\n"
      "    j: int = tm.league_rank()\n"
      "    def first(i: int):\n"
      "        y[j][i] = i\n"
      "    pk.parallel_for(pk.TeamThreadRange(tm, N), first)\n"
      "    def second(q: int):\n"
      "        y[j][q] = 2 * y[j][%s] + 1\n"
      "    pk.parallel_for(pk.TeamThreadRange(tm, N), second)\n";
  char src[1024];
  pki_diags d;
  snprintf(src, sizeof src, src_fmt, "q");
  pki_module *m = checked(src, &d);
  assert_int_equal(d.n, 0);
  assert_int_equal(barriers_in(&first_func(m)->body), 0);
  pki_module_free(m);
  snprintf(src, sizeof src, src_fmt, "N - 1 - q");
  m = checked(src, &d);
  assert_int_equal(barriers_in(&first_func(m)->body), 1);
  at(&d, "team-barrier", 10, 5);
  pki_module_free(m);
}

/* The program's own barrier, or a nested reduce (which ends in one):
 * nothing is added. */
static void test_existing_sync_kept(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, y: pk.View2D[pk.int32], out: pk.View1D[pk.int32], N: int):\n"
                          "    j: int = tm.league_rank()\n"
                          "    def inner_for(i: int):\n"
                          "        y[j][i] = i\n"
                          "    pk.parallel_for(pk.TeamThreadRange(tm, N), inner_for)\n"
                          "    tm.team_barrier()\n"
                          "    if tm.team_rank() == 0:\n"
                          "        out[j] = y[j][j]\n"
                          "    pk.parallel_for(pk.TeamThreadRange(tm, N), inner_for)\n"
                          "    def red(i: int, acc: pk.Acc[pk.int32]):\n"
                          "        acc += y[j][N - 1 - i]\n"
                          "    s: int = pk.parallel_reduce(pk.TeamThreadRange(tm, N), red)\n",
                          &d);
  /* none after the program's own barrier; one before the second fill, which
   * may overwrite y[j][j] while thread 0 still reads it; one before the reduce */
  assert_int_equal(count(&d, PKI_SEV_NOTE, "team-barrier"), 2);
  assert_non_null(strstr(at(&d, "team-barrier", 11, 5)->message, "still read in the `if` at line 9"));
  at(&d, "team-barrier", 14, 14);
  assert_int_equal(barriers_in(&first_func(m)->body), 3);
  pki_module_free(m);
}

/* ---------------------------------------------- rule 3: possible-race */

static void test_scatter_warns(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def scatter(i: int, A: pk.View1D[pk.double], idx: pk.View1D[pk.int32]):\n"
                          "    A[idx[i]] += 1.0\n"
                          "@pk.workunit\n"
                          "def fields(i: int, field: pk.View1D[pk.double], n: int):\n"
                          "    for j in range(n):\n"
                          "        field[j] += 1.0 * i\n",
                          &d);
  const pki_diag *w = at(&d, "possible-race", 4, 5);
  assert_int_equal(w->severity, PKI_SEV_WARNING);
  assert_non_null(strstr(w->message, "'scatter' writes 'A' at idx[i]"));
  assert_non_null(strstr(w->message, "pk.atomic_add"));
  at(&d, "possible-race", 8, 9);
  assert_int_equal(count(&d, PKI_SEV_WARNING, "possible-race"), 2);
  pki_module_free(m);
}

/* Atomics, the work point, slots reserved atomically, a store under
 * `if i == 0:` and the opt-out comment: no warning. */
static void test_scatter_quiet(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked(
      "import pykokkos as pk\n"
      "@pk.workunit\n"
      "def a(i: int, A: pk.View1D[pk.double], idx: pk.View1D[pk.int32]):\n"
      "    pk.atomic_add(A, [idx[i]], 1.0)\n"
      "@pk.workunit\n"
      "def b(i: int, A: pk.View1D[pk.double], B: pk.View2D[pk.double], n: int):\n"
      "    A[i] = 2.0 * i\n"
      "    for j in range(n):\n"
      "        B[i][j] = 1.0\n"
      "@pk.workunit\n"
      "def c(i: int, cnt: pk.View1D[pk.int32], slots: pk.View2D[pk.int32], b: pk.View1D[pk.int32]):\n"
      "    slot: int = pk.atomic_fetch_add(cnt, [b[i]], 1)\n"
      "    slots[b[i]][slot] = i\n"
      "@pk.workunit\n"
      "def e(i: int, A: pk.View1D[pk.double], idx: pk.View1D[pk.int32]):\n"
      "    A[idx[i]] = 1.0  # pkc: allow possible-race (idx is a permutation)\n"
      "@pk.workunit\n"
      "def f(i: int, A: pk.View1D[pk.double], idx: pk.View1D[pk.int32]):\n"
      "    A[idx[i]] = 1.0\n"
      "@pk.workunit\n"
      "def g(i: int, A: pk.View2D[pk.double], n: int, c: int):\n"
      "    if i == 0:\n"
      "        for j in range(n):\n"
      "            A[0][j] = 0.0\n"
      "    r: int = i // c\n"
      "    A[r * c + (i - r * c)][0] = 1.0\n"
      "@pk.workunit\n"
      "def h(i: int, src: int, front: pk.View1D[pk.int32], items: pk.View1D[pk.int32], "
      "cnt: pk.View1D[pk.int32]):\n"
      "    if i == src:\n"
      "        front[0] = i\n"
      "    items[pk.atomic_fetch_add(cnt, [0], 1)] = i\n",
      &d);
  /* only f's store, the one without an atomic or the comment; g's first store
   * runs on one work item, its second's index pkc cannot tell (division); h's
   * runs on the one item equal to a parameter, and at an atomic slot */
  assert_int_equal(count(&d, PKI_SEV_WARNING, "possible-race"), 1);
  at(&d, "possible-race", 19, 5);
  pki_module_free(m);
}

/* Writers other than a nested parallel_for: a loop under `if team_rank()
 * == 0`, pk.single, the final pass of a scan, a store at the thread's own
 * slot; and a uniform `if` reading in its condition what a nested
 * parallel_for counted: each gets a barrier before the first reader. */
static void test_barrier_after_other_writers(void **state) {
  (void)state;
  static const struct { const char *body; unsigned line, col; const char *writer; } cases[] = {
      {"    if tm.team_rank() == 0:\n"
       "        for j in range(N):\n"
       "            s[j] = a[e][j] * 2.0\n"
       "    def rd(j: int):\n"
       "        out[e][j] = s[N - 1 - j]\n"
       "    pk.parallel_for(pk.TeamThreadRange(tm, N), rd)\n",
       11, 5, "in the `if` at line 6"},
      {"    def head():\n"
       "        s[0] = a[e][0]\n"
       "    pk.single(pk.PerTeam(tm), head)\n"
       "    def rd(j: int):\n"
       "        out[e][j] = a[e][j] / s[0]\n"
       "    pk.parallel_for(pk.TeamThreadRange(tm, N), rd)\n",
       11, 5, "in the pk.single at line 8"},
      {"    def scan(j: int, acc: pk.Acc[pk.double], final: bool):\n"
       "        if final:\n"
       "            s[j] = acc\n"
       "        acc += a[e][j]\n"
       "    pk.parallel_scan(pk.TeamThreadRange(tm, N), scan)\n"
       "    def rd(j: int):\n"
       "        out[e][j] = s[N - 1 - j]\n"
       "    pk.parallel_for(pk.TeamThreadRange(tm, N), rd)\n",
       13, 5, "in the parallel_scan over TeamThreadRange at line 10"},
      {"    r: int = tm.team_rank()\n"
       "    s[r] = a[e][r]\n"
       "    if r == 0:\n"
       "        out[e][0] = s[0] + s[1]\n",
       8, 5, "in the statement at line 7"},
      {"    def count(j: int):\n"
       "        if a[e][j] > 0.5:\n"
       "            pk.atomic_add(s, [0], 1.0)\n"
       "    pk.parallel_for(pk.TeamThreadRange(tm, N), count)\n"
       "    if s[0] > 2.0:\n"
       "        def rd(j: int):\n"
       "            out[e][j] = 1.0\n"
       "        pk.parallel_for(pk.TeamThreadRange(tm, N), rd)\n",
       10, 5, "in the parallel_for over TeamThreadRange at line 9"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char src[2048];
    snprintf(src, sizeof src,
             "import pykokkos as pk\n"
             "@pk.workunit\n"
             "def k(tm: pk.TeamMember, N: int, a: pk.View2D[pk.double], out: pk.View2D[pk.double]):\n"
             "    e: int = tm.league_rank()\n"
             "    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(tm.team_scratch(0), N)\n"
             "%s", cases[i].body);
    pki_diags d;
    pki_module *m = checked(src, &d);
    assert_int_equal(barriers_in(&first_func(m)->body), 1);
    const pki_diag *n = at(&d, "team-barrier", cases[i].line, cases[i].col);
    if (!strstr(n->message, cases[i].writer))
      fail_msg("case %zu: '%s' lacks '%s'", i, n->message, cases[i].writer);
    pki_module_free(m);
  }
}

/* A flag thread 0 stores, then the program's own barrier: every thread reads
 * the same value, so a collective in a branch on it is not divergent (no
 * error) and needs no further barrier. */
static void test_flag_after_barrier_uniform(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked(
      "import pykokkos as pk\n"
      "@pk.workunit\n"
      "def k(tm: pk.TeamMember, N: int, a: pk.View2D[pk.double], flag: pk.View1D[pk.int32]):\n"
      "    e: int = tm.league_rank()\n"
      "    if tm.team_rank() == 0:\n"
      "        flag[e] = 1 if a[e][0] > 0.5 else 0\n"
      "    tm.team_barrier()\n"
      "    if flag[e] == 1:\n"
      "        def big(j: int):\n"
      "            a[e][j] = 2.0 * a[e][j]\n"
      "        pk.parallel_for(pk.TeamThreadRange(tm, N), big)\n",
      &d);
  assert_int_equal(d.errors, 0);
  assert_int_equal(count(&d, PKI_SEV_NOTE, "team-barrier"), 0);
  pki_module_free(m);
}

/* Rule 4: a value only thread 0 (or pk.single, or each thread for its own
 * iterations) assigned, read by every thread: a warning at the read. */
static void test_partial_value_warns(void **state) {
  (void)state;
  static const struct { const char *body; unsigned line; const char *who; } cases[] = {
      {"    mx: float = 1.0\n"
       "    if tm.team_rank() < 2:\n"
       "        for j in range(N):\n"
       "            mx = max(mx, a[e][j])\n"
       "    def norm(j: int):\n"
       "        out[e][j] = a[e][j] / mx\n"
       "    pk.parallel_for(pk.TeamThreadRange(tm, N), norm)\n",
       11, "only the threads that take the `if` at line 6"},
      {"    cnt: int = 0\n"
       "    def body(j: int):\n"
       "        nonlocal cnt\n"
       "        cnt += 1\n"
       "    pk.parallel_for(pk.TeamThreadRange(tm, N), body)\n"
       "    out[e][0] = cnt\n",
       10, "pk.parallel_reduce(pk.TeamThreadRange(...), ...)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char src[2048];
    snprintf(src, sizeof src,
             "import pykokkos as pk\n"
             "@pk.workunit\n"
             "def k(tm: pk.TeamMember, N: int, a: pk.View2D[pk.double], out: pk.View2D[pk.double]):\n"
             "    e: int = tm.league_rank()\n"
             "%s", cases[i].body);
    pki_diags d;
    pki_module *m = checked(src, &d);
    const pki_diag *w = at(&d, "team-partial-value", cases[i].line, 5);
    assert_int_equal(w->severity, PKI_SEV_WARNING);
    if (!strstr(w->message, cases[i].who))
      fail_msg("case %zu: '%s' lacks '%s'", i, w->message, cases[i].who);
    pki_module_free(m);
  }
  /* per-thread partial sums of a strided loop, stored at the thread's slot */
  pki_diags d;
  pki_module *m = checked(
      "import pykokkos as pk\n"
      "@pk.workunit\n"
      "def k(tm: pk.TeamMember, N: int, a: pk.View2D[pk.double], out: pk.View2D[pk.double]):\n"
      "    e: int = tm.league_rank()\n"
      "    r: int = tm.team_rank()\n"
      "    part: float = 0.0\n"
      "    for j in range(r, N, tm.team_size()):\n"
      "        part += a[e][j]\n"
      "    out[e][r] = part\n",
      &d);
  assert_int_equal(count(&d, PKI_SEV_WARNING, "team-partial-value"), 0);
  pki_module_free(m);
}

/* Rule 5: a team barrier inside a TeamThreadRange closure is an error. */
static void test_collective_in_closure(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = lower("import pykokkos as pk\n"
                        "@pk.workunit\n"
                        "def k(tm: pk.TeamMember, N: int, a: pk.View1D[pk.double]):\n"
                        "    def step(j: int):\n"
                        "        a[j] = 2.0 * a[j]\n"
                        "        tm.team_barrier()\n"
                        "    pk.parallel_for(pk.TeamThreadRange(tm, N), step)\n",
                        &d);
  pki_check(m, &d);
  const pki_diag *e = at(&d, "collective-in-closure", 6, 9);
  assert_int_equal(e->severity, PKI_SEV_ERROR);
  assert_non_null(strstr(e->message, "parallel_for over TeamThreadRange at line 7"));
  pki_module_free(m);
}

/* Rule 3 in a team: a TeamThreadRange closure adding into one element for
 * every iteration (an index of team-wide values) races between the team's
 * threads: the update is made atomic (note "team-atomic", no warning); a
 * plain store there still warns; one element per iteration does neither. */
static void test_closure_same_element(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, N: int, a: pk.View2D[pk.double], "
                          "out: pk.View2D[pk.double], tot: pk.View1D[pk.double]):\n"
                          "    e: int = tm.league_rank()\n"
                          "    def add(j: int):\n"
                          "        tot[e] += a[e][j]\n"
                          "        out[e][j] = 2.0 * a[e][j]\n"
                          "        tot[0] = a[e][j]\n"
                          "    pk.parallel_for(pk.TeamThreadRange(tm, N), add)\n",
                          &d);
  const pki_diag *n = at(&d, "team-atomic", 6, 9);
  assert_int_equal(n->severity, PKI_SEV_NOTE);
  assert_non_null(strstr(n->message, "parallel_for over TeamThreadRange at line 9"));
  assert_int_equal(count(&d, PKI_SEV_NOTE, "team-atomic"), 1);
  const pki_diag *w = at(&d, "possible-race", 8, 9);
  assert_non_null(strstr(w->message, "parallel_for over TeamThreadRange at line 9"));
  assert_int_equal(count(&d, PKI_SEV_WARNING, "possible-race"), 1);
  const pki_func *body = first_func(m)->body.stmts[1]->closure;
  assert_non_null(body);
  const pki_stmt *s = body->body.stmts[0];
  assert_int_equal(s->kind, PKI_S_EXPR);
  assert_int_equal(s->value->intrinsic, PKI_INTRINSIC_ATOMIC_ADD);
  pki_module_free(m);
}

/* Rule 3 between teams: a TeamThreadRange closure writing a View at the
 * league rank plus (or minus) its index (a scatter convolution) meets the
 * neighbouring teams' elements: an update is made atomic (note
 * "team-atomic"), a plain store warns; an index that keeps the teams apart
 * (r * K + j, another index that is the league rank, teams interleaved by
 * r + j * K) does neither. */
static void test_closure_teams_overlap(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, K: int, x: pk.View1D[pk.double], "
                          "w: pk.View1D[pk.double], out: pk.View1D[pk.double], "
                          "o2: pk.View2D[pk.double]):\n"
                          "    r: int = tm.league_rank()\n"
                          "    def add(j: int):\n"
                          "        out[r + j] += w[j] * x[r]\n"
                          "        out[r + j] = w[j]\n"
                          "        out[r * K + j] += w[j]\n"
                          "        o2[r][r + j] += w[j]\n"
                          "        out[j - r + 1] += 1.0\n"
                          "        out[r + j * K] += 1.0\n"
                          "    pk.parallel_for(pk.TeamThreadRange(tm, K), add)\n",
                          &d);
  const pki_diag *n = at(&d, "team-atomic", 6, 9);
  assert_non_null(strstr(n->message, "league rank plus an index"));
  assert_non_null(strstr(n->message, "parallel_for over TeamThreadRange at line 12"));
  at(&d, "team-atomic", 10, 9);
  assert_int_equal(count(&d, PKI_SEV_NOTE, "team-atomic"), 2);
  const pki_diag *w = at(&d, "possible-race", 7, 9);
  assert_non_null(strstr(w->message, "stores to 'out' at the league rank plus"));
  assert_int_equal(count(&d, PKI_SEV_WARNING, "possible-race"), 1);
  const pki_func *body = first_func(m)->body.stmts[1]->closure;
  assert_non_null(body);
  assert_int_equal(body->body.stmts[0]->kind, PKI_S_EXPR); /* now pk.atomic_add */
  assert_int_equal(body->body.stmts[0]->value->intrinsic, PKI_INTRINSIC_ATOMIC_ADD);
  assert_int_equal(body->body.stmts[2]->kind, PKI_S_AUGASSIGN); /* r * K + j: as written */
  assert_int_equal(body->body.stmts[3]->kind, PKI_S_AUGASSIGN); /* o2[r][...]: as written */
  assert_int_equal(body->body.stmts[4]->kind, PKI_S_EXPR);
  assert_int_equal(body->body.stmts[5]->kind, PKI_S_AUGASSIGN); /* teams interleaved */
  pki_module_free(m);
}

/* Elements a work item owns: the bucket offset plus a slot reserved at the
 * same bucket (a counting sort's scatter), and the element of a
 * compare-exchange it won (BFS's claim). An offset read at another index,
 * a claim at another element and a store on a lost claim still warn. */
static void test_scatter_owned_elements(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked(
      "import pykokkos as pk\n"
      "@pk.workunit\n"
      "def place(i: int, key: pk.View1D[pk.int32], start: pk.View1D[pk.int32], "
      "fill: pk.View1D[pk.int32], out: pk.View1D[pk.int32]):\n"
      "    b: int = key[i]\n"
      "    slot: int = pk.atomic_fetch_add(fill, [b], 1)\n"
      "    out[start[b] + slot] = i\n"
      "    out[start[b] + pk.atomic_fetch_add(fill, [b], 1)] = i\n"
      "    out[start[i] + slot] = i\n"
      "@pk.workunit\n"
      "def claim(i: int, nbr: pk.View1D[pk.int32], level: pk.View1D[pk.int32], "
      "parent: pk.View1D[pk.int32]):\n"
      "    v: int = nbr[i]\n"
      "    old: int = pk.atomic_compare_exchange(level, [v], -1, 1)\n"
      "    if old == -1:\n"
      "        parent[v] = i\n"
      "        parent[v + 1] = i\n"
      "    if old == 1:\n"
      "        parent[v] = i\n",
      &d);
  at(&d, "possible-race", 8, 5);  /* start[i]: not the slot's bucket */
  at(&d, "possible-race", 15, 9); /* another element than the claim's */
  at(&d, "possible-race", 14, 9); /* parent[v] once more at line 17, on a lost claim (the
                                      summary reports an element at its first store) */
  assert_int_equal(count(&d, PKI_SEV_WARNING, "possible-race"), 3);
  pki_module_free(m);
}

/* Histograms in a TeamThreadRange closure: an update of team scratch at an
 * index read from a View becomes an atomic (note "team-atomic"), one of a
 * global View warns, a plain store through such an index (a permutation)
 * and an update the comment allows stay as written. */
static void test_closure_histogram(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, N: int, key: pk.View1D[pk.int32], "
                          "out: pk.View1D[pk.int32], perm: pk.View1D[pk.double]):\n"
                          "    h: pk.ScratchView1D[pk.int32] = pk.ScratchView1D(tm.team_scratch(0), 8)\n"
                          "    def count(j: int):\n"
                          "        b: int = key[j] % 8\n"
                          "        h[b] += 1\n"
                          "        out[key[j]] += 1\n"
                          "        perm[key[j]] = 1.0\n"
                          "        h[key[j]] |= 2  # pkc: allow possible-race\n"
                          "        h[j % 8] += 1\n"
                          "    pk.parallel_for(pk.TeamThreadRange(tm, N), count)\n",
                          &d);
  const pki_diag *n = at(&d, "team-atomic", 7, 9);
  assert_int_equal(n->severity, PKI_SEV_NOTE);
  assert_non_null(strstr(n->message, "parallel_for over TeamThreadRange at line 12"));
  assert_non_null(strstr(n->message, "as pk.atomic_add would"));
  assert_int_equal(count(&d, PKI_SEV_NOTE, "team-atomic"), 1);
  at(&d, "possible-race", 8, 9);
  assert_int_equal(count(&d, PKI_SEV_WARNING, "possible-race"), 1);
  const pki_func *body = first_func(m)->body.stmts[1]->closure;
  assert_non_null(body);
  const pki_stmt *s = body->body.stmts[1];
  assert_int_equal(s->kind, PKI_S_EXPR);
  assert_int_equal(s->value->intrinsic, PKI_INTRINSIC_ATOMIC_ADD);
  assert_int_equal(body->body.stmts[4]->kind, PKI_S_AUGASSIGN); /* allowed */
  assert_int_equal(body->body.stmts[5]->kind, PKI_S_AUGASSIGN); /* j % 8: not from a View */
  pki_module_free(m);
}

/* Atomics after atomics into the same View need no barrier (the updates
 * commute); a plain read after them does. */
static void test_atomics_after_atomics(void **state) {
  (void)state;
  const char *fmt = "import pykokkos as pk\n"
                    "@pk.workunit\n"
                    "def k(tm: pk.TeamMember, N: int, out: pk.View1D[pk.int64]):\n"
                    "    def once():\n"
                    "        pk.atomic_add(out, [0], 1)\n"
                    "    pk.single(pk.PerThread(tm), once)\n"
                    "    def count(j: int):\n"
                    "        %s\n"
                    "    pk.parallel_for(pk.TeamThreadRange(tm, N), count)\n";
  char src[1024];
  pki_diags d;
  snprintf(src, sizeof src, fmt, "pk.atomic_add(out, [1], 1)");
  pki_module *m = checked(src, &d);
  assert_int_equal(barriers_in(&first_func(m)->body), 0);
  pki_module_free(m);
  snprintf(src, sizeof src, fmt, "out[2 + j] = out[0]");
  m = checked(src, &d);
  assert_int_equal(barriers_in(&first_func(m)->body), 1);
  at(&d, "team-barrier", 9, 5);
  pki_module_free(m);
}

/* Taint follows the flow: a scalar set on thread 0 only and then given every
 * thread the team reduce's result is uniform again, so a branch on it may
 * hold a collective; a per-thread ThreadVectorRange reduce's result is not. */
static void test_taint_flows(void **state) {
  (void)state;
  const char *fmt = "import pykokkos as pk\n"
                    "@pk.workunit\n"
                    "def k(tm: pk.TeamMember, n: int, a: pk.View2D[pk.double], "
                    "out: pk.View2D[pk.double]):\n"
                    "    e: int = tm.league_rank()\n"
                    "    r: int = tm.team_rank()\n"
                    "    t: float = 0.0\n"
                    "    if r == 0:\n"
                    "        t = a[e][0]\n"
                    "        out[e][0] = t\n"
                    "    def body(j: int, acc: pk.Acc[pk.double]):\n"
                    "        acc += %s\n"
                    "    t = pk.parallel_reduce(pk.%s(tm, n), body)\n"
                    "    if t > 0.5 * n:\n"
                    "        def hi(j: int):\n"
                    "            out[e][j] = t\n"
                    "        pk.parallel_for(pk.TeamThreadRange(tm, n), hi)\n";
  char src[2048];
  pki_diags d;
  snprintf(src, sizeof src, fmt, "a[e][j]", "TeamThreadRange");
  pki_module *m = checked(src, &d);
  assert_int_equal(d.errors, 0);
  assert_int_equal(count(&d, PKI_SEV_WARNING, "team-partial-value"), 0);
  pki_module_free(m);
  snprintf(src, sizeof src, fmt, "a[e][j] * (1 - 2 * (r % 2))", "ThreadVectorRange");
  m = lower(src, &d);
  pki_check(m, &d);
  assert_int_equal(at(&d, "divergent-collective", 16, 9)->severity, PKI_SEV_ERROR);
  pki_module_free(m);
}

/* Two sweeps over the same range expression run their iterations on the same
 * threads only if its value cannot change between them: a bound that shrinks
 * in the loop moves elements to other threads, so the next sweep needs a
 * barrier; a fixed bound needs none. */
static void test_same_range_changing_bound(void **state) {
  (void)state;
  const char *fmt = "import pykokkos as pk\n"
                    "@pk.workunit\n"
                    "def k(tm: pk.TeamMember, n: int, iters: int, out: pk.View2D[pk.int64]):\n"
                    "    e: int = tm.league_rank()\n"
                    "    m_: int = n\n"
                    "    for it in range(iters):\n"
                    "        def upd(j: int):\n"
                    "            out[e][j] = out[e][j] + 1\n"
                    "        pk.parallel_for(pk.TeamThreadRange(tm, m_), upd)\n"
                    "        %s\n";
  char src[1024];
  pki_diags d;
  snprintf(src, sizeof src, fmt, "m_ = m_ - 1");
  pki_module *m = checked(src, &d);
  at(&d, "team-barrier", 9, 9);
  pki_module_free(m);
  snprintf(src, sizeof src, fmt, "pass");
  m = checked(src, &d);
  assert_int_equal(count(&d, PKI_SEV_NOTE, "team-barrier"), 0);
  pki_module_free(m);
}

/* A store may not overtake another thread's read: smoothing in scratch
 * reads s[j - 1] and s[j + 1], so copying back into s needs a barrier first
 * (write after read). Stores at each thread's own slot, or at another
 * constant row, are apart from the other threads' accesses. */
static void test_write_after_read(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, n: int, s: pk.View1D[pk.double], "
                          "tmp: pk.View1D[pk.double]):\n"
                          "    def smooth(j: int):\n"
                          "        tmp[j] = 0.5 * (s[j - 1] + s[j + 1])\n"
                          "    pk.parallel_for(pk.TeamThreadRange(tm, 1, n - 1), smooth)\n"
                          "    def copy(j: int):\n"
                          "        s[j] = tmp[j]\n"
                          "    pk.parallel_for(pk.TeamThreadRange(tm, 1, n - 1), copy)\n",
                          &d);
  const pki_diag *b = at(&d, "team-barrier", 9, 5);
  assert_non_null(strstr(b->message, "store to elements of 's' that other threads of the team "
                                     "still read in the parallel_for over TeamThreadRange at "
                                     "line 6"));
  assert_int_equal(barriers_in(&first_func(m)->body), 1);
  pki_module_free(m);
  m = checked("import pykokkos as pk\n"
              "@pk.workunit\n"
              "def k(tm: pk.TeamMember, buf: pk.View2D[pk.double], x: pk.View1D[pk.double]):\n"
              "    t: int = tm.team_rank()\n"
              "    if t < 64:\n"
              "        buf[0][t] = 0.0\n"
              "    buf[1][t] = x[t]\n"
              "    buf[1][t] = 2.0 * buf[1][t]\n",
              &d);
  assert_int_equal(count(&d, PKI_SEV_NOTE, "team-barrier"), 0);
  pki_module_free(m);
}

/* A value only team rank 0 assigned (pk.single, a rank-0 branch) and every
 * thread reads gets m.team_broadcast(x, 0) after the writer; not where some
 * threads may have left early (they would never reach it). */
static void test_rank0_value_broadcast(void **state) {
  (void)state;
  static const char *writers[] = {
      "    def head():\n"
      "        nonlocal scale\n"
      "        scale = 1.0 / a[e][0]\n"
      "    pk.single(pk.PerTeam(tm), head)\n",
      "    if tm.team_rank() == 0:\n"
      "        scale = 1.0 / a[e][0]\n"
      "        scale = scale * 1.0\n"
      "    \n",
  };
  for (size_t i = 0; i < 2; i++) {
    char src[2048];
    snprintf(src, sizeof src,
             "import pykokkos as pk\n"
             "@pk.workunit\n"
             "def k(tm: pk.TeamMember, N: int, a: pk.View2D[pk.double], out: pk.View2D[pk.double]):\n"
             "    e: int = tm.league_rank()\n"
             "    scale: float = 0.0\n"
             "%s"
             "    def norm(j: int):\n"
             "        out[e][j] = a[e][j] * scale\n"
             "    pk.parallel_for(pk.TeamThreadRange(tm, N), norm)\n",
             writers[i]);
    pki_diags d;
    pki_module *m = checked(src, &d);
    assert_int_equal(count(&d, PKI_SEV_WARNING, "team-partial-value"), 0);
    const pki_diag *n = at(&d, "team-broadcast", i == 0 ? 9 : 6, 5);
    assert_non_null(strstr(n->message, "every thread of the team reads it at line 12"));
    pki_block *body = &first_func(m)->body;
    const pki_stmt *b = body->stmts[3]; /* right after the writer */
    assert_int_equal(b->kind, PKI_S_EXPR);
    assert_int_equal(b->value->intrinsic, PKI_INTRINSIC_TEAM_BROADCAST);
    assert_string_equal(b->value->args[1]->var->name, "scale");
    pki_module_free(m);
  }
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(tm: pk.TeamMember, N: int, a: pk.View2D[pk.double], "
                          "out: pk.View2D[pk.double]):\n"
                          "    e: int = tm.league_rank()\n"
                          "    if tm.team_rank() >= N:\n"
                          "        return\n"
                          "    scale: float = 0.0\n"
                          "    if tm.team_rank() == 0:\n"
                          "        scale = 1.0 / a[e][0]\n"
                          "    out[e][tm.team_rank()] = a[e][tm.team_rank()] * scale\n",
                          &d);
  assert_int_equal(count(&d, PKI_SEV_NOTE, "team-broadcast"), 0);
  at(&d, "team-partial-value", 10, 5);
  pki_module_free(m);
}

/* A store inside a uniform branch whose condition read the same View is a
 * write after those reads (the barrier goes inside, before the store; every
 * thread has read the condition by then). Crashed pkc check once. */
static void test_store_after_condition_read(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = checked("import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(m: pk.TeamMember, b: pk.View1D[pk.double]):\n"
                          "    i: int = 0\n"
                          "    if b[0] > 0.0:\n"
                          "        b[i] = 1.0\n",
                          &d);
  assert_non_null(strstr(at(&d, "team-barrier", 6, 9)->message, "still read in the `if` at line 5"));
  pki_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hoist_reduce),
      cmocka_unit_test(test_no_hoist_branch_dependent),
      cmocka_unit_test(test_uniform_branch_kept),
      cmocka_unit_test(test_hoist_barrier_derived),
      cmocka_unit_test(test_no_hoist_effects),
      cmocka_unit_test(test_divergent_loop),
      cmocka_unit_test(test_early_return),
      cmocka_unit_test(test_divergent_exit),
      cmocka_unit_test(test_barrier_inserted),
      cmocka_unit_test(test_own_element_no_barrier),
      cmocka_unit_test(test_existing_sync_kept),
      cmocka_unit_test(test_scatter_warns),
      cmocka_unit_test(test_scatter_quiet),
      cmocka_unit_test(test_scatter_owned_elements),
      cmocka_unit_test(test_barrier_after_other_writers),
      cmocka_unit_test(test_flag_after_barrier_uniform),
      cmocka_unit_test(test_partial_value_warns),
      cmocka_unit_test(test_collective_in_closure),
      cmocka_unit_test(test_closure_same_element),
      cmocka_unit_test(test_closure_teams_overlap),
      cmocka_unit_test(test_closure_histogram),
      cmocka_unit_test(test_atomics_after_atomics),
      cmocka_unit_test(test_taint_flows),
      cmocka_unit_test(test_same_range_changing_bound),
      cmocka_unit_test(test_write_after_read),
      cmocka_unit_test(test_rank0_value_broadcast),
      cmocka_unit_test(test_store_after_condition_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
