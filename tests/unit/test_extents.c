/* test_extents.c - what a launch range must fit (ir/extents.c): accesses
 * every work point makes (top-level statements before any return, outside
 * conditional expressions) give rules per View dimension with the constant
 * offsets; guarded, returned-past and indirect accesses give none. */
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

/* The rules of the only workunit of src (checked, no errors). */
static pki_vec rules_of(const char *src, const pki_func **kernel) {
  pki_diags d;
  pki_module *m = lower(src, &d);
  assert_int_equal(d.errors + pki_check(m, &d), 0);
  pki_extent_plan_module(m);
  *kernel = m->entities[0]->funcs[0];
  return (*kernel)->extent_rules;
}

static const pki_extent_rule *rule(pki_vec v, const char *view, int dim) {
  for (int i = 0; i < v.n; i++) {
    const pki_extent_rule *r = PKI_AT(v, i, pki_extent_rule);
    if (!strcmp(r->view->name, view) && r->dim == dim)
      return r;
  }
  return NULL;
}

static void test_identity_and_offsets(void **state) {
  (void)state;
  const pki_func *f;
  pki_vec v = rules_of("import pykokkos as pk\n"
                       "@pk.workunit\n"
                       "def k(i: int, d: pk.View1D[float], u: pk.View1D[float]):\n"
                       "    d[i] = u[i + 2] - u[i - 1]\n", &f);
  assert_int_equal(v.n, 2);
  const pki_extent_rule *d = rule(v, "d", 0), *u = rule(v, "u", 0);
  assert_non_null(d);
  assert_non_null(u);
  assert_int_equal(d->lo, 0);
  assert_int_equal(d->hi, 0);
  assert_int_equal(u->lo, -1);
  assert_int_equal(u->hi, 2);
}

static void test_mdrange_dimensions(void **state) {
  (void)state;
  const pki_func *f;
  pki_vec v = rules_of("import pykokkos as pk\n"
                       "@pk.workunit\n"
                       "def k(i: int, j: int, a: pk.View2D[float], b: pk.View2D[float]):\n"
                       "    a[i, j] = b[j, i]\n"
                       "def run(a, b):\n"
                       "    pk.parallel_for(pk.MDRangePolicy([0, 0], [4, 4]), k, a=a, b=b)\n",
                       &f);
  const pki_extent_rule *a1 = rule(v, "a", 1), *b0 = rule(v, "b", 0);
  assert_non_null(a1);
  assert_non_null(b0);
  assert_int_equal(a1->work, 1);
  assert_int_equal(b0->work, 1); /* b's first index is j */
}

static void test_conditional_accesses_give_none(void **state) {
  (void)state;
  const pki_func *f;
  pki_vec v = rules_of("import pykokkos as pk\n"
                       "@pk.workunit\n"
                       "def k(i: int, d: pk.View1D[float], u: pk.View1D[float], n: int):\n"
                       "    if i > 0 and i < n - 1:\n"
                       "        d[i] = u[i + 1] - u[i - 1]\n"
                       "    x: float = u[i + 5] if i < 3 else 0.0\n"
                       "    y: bool = i < 2 and u[i + 7] > 0.0\n", &f);
  assert_int_equal(v.n, 0);
}

static void test_nothing_after_a_return(void **state) {
  (void)state;
  const pki_func *f;
  pki_vec v = rules_of("import pykokkos as pk\n"
                       "@pk.workunit\n"
                       "def k(i: int, d: pk.View1D[float], u: pk.View1D[float], n: int):\n"
                       "    d[i] = 1.0\n"
                       "    if i >= n:\n"
                       "        return\n"
                       "    d[i] = u[i + 1]\n", &f);
  assert_int_equal(v.n, 1);
  assert_non_null(rule(v, "d", 0));
  assert_null(rule(v, "u", 0));
}

static void test_indirect_index_gives_none(void **state) {
  (void)state;
  const pki_func *f;
  pki_vec v = rules_of("import pykokkos as pk\n"
                       "@pk.workunit\n"
                       "def k(i: int, o: pk.View1D[float], s: pk.View1D[float], "
                       "ix: pk.View1D[int]):\n"
                       "    o[i] = s[ix[i]] + s[3]\n", &f);
  assert_non_null(rule(v, "o", 0));
  assert_non_null(rule(v, "ix", 0));
  assert_null(rule(v, "s", 0));
}

/* A team kernel: its work index is the league rank; accesses in a team loop
 * or pk.single at the top count, team_rank() and those under `if` do not. */
static void test_team_league_rank(void **state) {
  (void)state;
  const pki_func *f;
  pki_vec v = rules_of("import pykokkos as pk\n"
                       "@pk.workunit\n"
                       "def k(t: pk.TeamMember, s: pk.View1D[float], a: pk.View2D[float],\n"
                       "      b: pk.View1D[float], c: pk.View1D[float]):\n"
                       "    row: int = t.league_rank()\n"
                       "    def inner(j: int, acc: pk.Acc[float]):\n"
                       "        acc += a[row + 1][j]\n"
                       "    total: float = pk.parallel_reduce(pk.TeamThreadRange(t, 4), inner)\n"
                       "    def store():\n"
                       "        s[row] = total\n"
                       "    pk.single(pk.PerTeam(t), store)\n"
                       "    b[t.team_rank()] = 1.0\n"
                       "    if row > 0:\n"
                       "        c[row] = 2.0\n", &f);
  const pki_extent_rule *a = rule(v, "a", 0), *s = rule(v, "s", 0);
  assert_non_null(a);
  assert_non_null(s);
  assert_int_equal(a->lo, 1);
  assert_int_equal(a->hi, 1);
  assert_int_equal(s->hi, 0);
  assert_null(rule(v, "a", 1));
  assert_null(rule(v, "b", 0));
  assert_null(rule(v, "c", 0));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_identity_and_offsets),
      cmocka_unit_test(test_mdrange_dimensions),
      cmocka_unit_test(test_conditional_accesses_give_none),
      cmocka_unit_test(test_nothing_after_a_return),
      cmocka_unit_test(test_indirect_index_gives_none),
      cmocka_unit_test(test_team_league_rank),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
