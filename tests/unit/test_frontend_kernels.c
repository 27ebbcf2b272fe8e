/* test_frontend_kernels.c - IR shape of the kernel-side dialect: team
 * workunits with nested reduce + single, MDRange, atomics, subviews. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "frontend_test_util.h"

static const char *TEAM =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workunit\n"
    "def team_k(m: pk.TeamMember, acc: pk.Acc[pk.double], A: pk.View2D[pk.double], n: int):\n"
    "    j: int = m.league_rank()\n"
    "    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(m.team_scratch(0), n)\n"
    "    def red(k, inner: pk.Acc[pk.double]):\n"
    "        inner += A[j, k]\n"
    "    t: float = pk.parallel_reduce(pk.TeamThreadRange(m, n), red)\n"
    "    m.team_barrier()\n"
    "    def one():\n"
    "        nonlocal acc\n"
    "        acc += t\n"
    "    pk.single(pk.PerTeam(m), one)\n";

static void test_team(void **state) {
  (void)state;
  pki_module *m = lower_ok(TEAM);
  pki_func *f = m->entities[0]->funcs[0];
  assert_int_equal(f->policy, PKI_POLICY_TEAM);
  assert_int_equal(f->pattern, PKI_PATTERN_REDUCE);
  assert_int_equal(f->nindex, 1);
  assert_int_equal(f->index[0]->type.kind, PKI_TEAM_MEMBER);
  assert_int_equal(f->nclosures, 2);
  /* j decl, s decl, t decl, nested, barrier expr, single */
  assert_int_equal(f->body.n, 6);
  pki_stmt *s0 = f->body.stmts[0];
  assert_int_equal(s0->value->kind, PKI_E_INTRINSIC);
  assert_int_equal(s0->value->intrinsic, PKI_INTRINSIC_LEAGUE_RANK);
  pki_stmt *s1 = f->body.stmts[1];
  assert_int_equal(s1->var->type.space, PKI_SPACE_SCRATCH);
  assert_int_equal(s1->value->intrinsic, PKI_INTRINSIC_SCRATCH_VIEW);
  assert_int_equal(s1->value->args[0]->intrinsic, PKI_INTRINSIC_TEAM_SCRATCH);
  assert_int_equal(s1->value->nargs, 2);
  pki_stmt *decl = f->body.stmts[2], *nest = f->body.stmts[3];
  assert_int_equal(decl->kind, PKI_S_DECL);
  assert_null(decl->value);
  assert_string_equal(decl->var->name, "t");
  assert_int_equal(nest->kind, PKI_S_NESTED);
  assert_int_equal(nest->pattern, PKI_PATTERN_REDUCE);
  assert_int_equal(nest->range, PKI_RANGE_TEAM_THREAD);
  assert_int_equal(nest->nargs, 3);
  assert_int_equal(nest->args[1]->kind, PKI_E_INT); /* begin 0 */
  assert_ptr_equal(nest->target->var, decl->var);
  pki_func *red = nest->closure;
  assert_true(red->is_closure);
  assert_ptr_equal(red->parent, f);
  assert_int_equal(red->nindex, 1);
  assert_int_equal(red->index[0]->type.kind, PKI_I64); /* unannotated index */
  assert_non_null(red->acc);
  assert_int_equal(f->body.stmts[4]->kind, PKI_S_EXPR);
  assert_int_equal(f->body.stmts[4]->value->intrinsic, PKI_INTRINSIC_TEAM_BARRIER);
  pki_stmt *single = f->body.stmts[5];
  assert_int_equal(single->kind, PKI_S_SINGLE);
  assert_int_equal(single->range, PKI_RANGE_PER_TEAM);
  assert_int_equal(single->closure->body.n, 1);
  assert_ptr_equal(single->closure->body.stmts[0]->target->var, f->acc);
  pki_module_free(m);
}

static const char *MD =
    "import pykokkos as pk\n"
    "@pk.workunit\n"
    "def md(i: int, j: int, acc: pk.Max[pk.double], A: pk.View2D[pk.double]):\n"
    "    acc = max(acc, A[i, j])\n"
    "@pk.workunit\n"
    "def md2(i: int, j: int, k: int, n: int, A: pk.View3D[pk.double]):\n"
    "    A[i, j, k] = n\n"
    "def host(A):\n"
    "    pk.parallel_for(pk.MDRangePolicy([0, 0, 0], [2, 2, 2]), md2, n=1, A=A)\n";

static void test_mdrange(void **state) {
  (void)state;
  pki_module *m = lower_ok(MD);
  pki_func *f = m->entities[0]->funcs[0];
  assert_int_equal(f->policy, PKI_POLICY_MDRANGE);
  assert_int_equal(f->nindex, 2);
  assert_int_equal(f->reducer, PKI_REDUCER_MAX);
  assert_int_equal(f->body.stmts[0]->kind, PKI_S_ASSIGN);
  pki_func *g = m->entities[1]->funcs[0];
  assert_int_equal(g->policy, PKI_POLICY_MDRANGE);
  assert_int_equal(g->nindex, 3); /* rank from the call site */
  assert_int_equal(g->nparams, 2);
  pki_module_free(m);
}

static const char *ATOM =
    "import pykokkos as pk\n"
    "@pk.workunit\n"
    "def at(i: int, A: pk.View2D[pk.double], B: pk.View1D[pk.int32]):\n"
    "    old = pk.atomic_fetch_add(A, [i, 0], 1.0)\n"
    "    pk.atomic_increment(B, [i])\n"
    "    pk.atomic_compare_exchange(B, [i], 0, 1)\n"
    "    row = A[i, :]\n"
    "    blk = pk.subview(A, slice(1, 3), slice(None))\n"
    "    B[i] = int(row[0] + blk[0, 0])\n";

static void test_atomics_subviews(void **state) {
  (void)state;
  pki_module *m = lower_ok(ATOM);
  pki_func *f = m->entities[0]->funcs[0];
  pki_expr *a = f->body.stmts[0]->value;
  assert_int_equal(a->intrinsic, PKI_INTRINSIC_ATOMIC_FETCH_ADD);
  assert_int_equal(a->nargs, 4); /* view, i, 0, value */
  pki_expr *inc = f->body.stmts[1]->value;
  assert_int_equal(inc->intrinsic, PKI_INTRINSIC_ATOMIC_INCREMENT);
  assert_int_equal(inc->nargs, 2);
  assert_int_equal(f->body.stmts[2]->value->nargs, 4);
  pki_stmt *row = f->body.stmts[3];
  assert_int_equal(row->value->intrinsic, PKI_INTRINSIC_SUBVIEW);
  assert_int_equal(row->value->nargs, 3);
  assert_int_equal(row->value->args[2]->kind, PKI_E_SLICE);
  assert_int_equal(row->value->args[2]->ival, 1);
  assert_int_equal(row->var->type.kind, PKI_VIEW);
  assert_int_equal(row->var->type.rank, 1);
  assert_int_equal(row->var->type.layout, PKI_LAYOUT_STRIDE);
  pki_stmt *blk = f->body.stmts[4];
  assert_int_equal(blk->var->type.rank, 2);
  assert_non_null(blk->value->args[1]->args[0]);
  assert_non_null(blk->value->args[1]->args[1]);
  assert_int_equal(blk->value->args[1]->ival, 0);
  pki_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_team),
      cmocka_unit_test(test_mdrange),
      cmocka_unit_test(test_atomics_subviews),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
