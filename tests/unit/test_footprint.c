/* test_footprint.c - the elements of each View that a work item touches
 * (ir/footprint.c), per View dimension, and the pkc_footprint_v1() table the
 * backend writes from them for pk.Graph's edges (issue 25). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define EMIT_TMP_TEMPLATE "/tmp/pkc_test_footprint_XXXXXX"
#include "access.h"
#include "emit_test_util.h"
#include "frontend_test_util.h"

#define HEAD "import pykokkos as pk\n@pk.workunit\n"
#define JACOBI                                                                             \
  HEAD "def jacobi(i: int, j: int, u: pk.View2D[pk.double], unew: pk.View2D[pk.double]):\n" \
       "    unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1])\n"  \
       "def run(u, unew, n):\n"                                                            \
       "    pk.parallel_for(pk.MDRangePolicy([1, 1], [n, n]), jacobi, u=u, unew=unew)\n"

/* The planned module of src; *f its first workunit. */
static pki_module *planned(const char *src, const pki_func **f) {
  pki_module *m = checked_first_workunit(src, f);
  pki_footprint_plan_module(m);
  return m;
}

/* The footprint of View `name` in f (fails the test where there is none). */
static const pki_footprint *of(const pki_func *f, const char *name) {
  for (int i = 0; i < f->footprint.n; i++) {
    const pki_footprint *fp = PKI_AT(f->footprint, i, pki_footprint);
    if (!strcmp(fp->view->name, name))
      return fp;
  }
  fail_msg("no footprint for %s", name);
  return NULL;
}

static void assert_dim(const pki_footprint *fp, int d, int work, int64_t lo, int64_t hi) {
  assert_int_equal(fp->dim[d].work, work);
  if (work != PKI_FOOTPRINT_ANY) {
    assert_int_equal(fp->dim[d].lo, lo);
    assert_int_equal(fp->dim[d].hi, hi);
  }
}

static void test_stencil_windows(void **state) {
  (void)state;
  const pki_func *f;
  pki_module *m = planned(JACOBI, &f);
  assert_true(f->footprint_planned && f->footprint_known);
  assert_int_equal(f->footprint.n, 2);
  const pki_footprint *u = of(f, "u"), *unew = of(f, "unew");
  assert_int_equal(u->mode, PKI_MEM_READ);
  assert_int_equal(unew->mode, PKI_MEM_WRITE);
  assert_dim(u, 0, 0, -1, 1); /* i - 1 .. i + 1 */
  assert_dim(u, 1, 1, -1, 1); /* j - 1 .. j + 1 */
  assert_dim(unew, 0, 0, 0, 0);
  assert_dim(unew, 1, 1, 0, 0);
  pki_module_free(m);
}

static void test_constants_loops_and_indirection(void **state) {
  (void)state;
  const pki_func *f;
  pki_module *m =
      planned(HEAD "def k(i: int, x: pk.View1D[pk.double], idx: pk.View1D[pk.int32],\n"
                   "      A: pk.View2D[pk.double], res: pk.View1D[pk.double], n: int):\n"
                   "    for j in range(n):\n"
                   "        A[i][j] = x[idx[i]]\n"
                   "    res[3] += A[i][2] + x[i]\n",
              &f);
  assert_true(f->footprint_known);
  const pki_footprint *x = of(f, "x"), *idx = of(f, "idx"), *A = of(f, "A"), *res = of(f, "res");
  assert_dim(x, 0, PKI_FOOTPRINT_ANY, 0, 0); /* x[idx[i]]: any element */
  assert_dim(idx, 0, 0, 0, 0);
  assert_dim(A, 0, 0, 0, 0);
  assert_dim(A, 1, PKI_FOOTPRINT_ANY, 0, 0); /* a loop index and the constant 2 */
  assert_dim(res, 0, PKI_FOOTPRINT_CONST, 3, 3);
  assert_int_equal(res->mode, PKI_MEM_READ | PKI_MEM_WRITE);
  assert_int_equal(A->mode, PKI_MEM_READ | PKI_MEM_WRITE);
  pki_module_free(m);
}

static void test_reductions_and_teams_unplanned(void **state) {
  (void)state;
  const pki_func *f;
  /* reductions and team kernels have no footprint */
  pki_module *m = planned(HEAD "def k(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double]):\n"
                   "    acc += x[i]\n",
              &f);
  assert_false(f->footprint_planned);
  pki_module_free(m);
  m = planned(HEAD "def k(t: pk.TeamMember, x: pk.View1D[pk.double]):\n"
                   "    x[t.league_rank()] = 1.0\n",
              &f);
  assert_false(f->footprint_planned);
  pki_module_free(m);
}

static void test_table_text(void **state) {
  (void)state;
  const pki_func *f;
  pki_module *m = planned(JACOBI, &f);
  char *cpp = emitted(m, "jacobi", "t.cpp");
  assert_non_null(cpp);
  HAS(cpp, "extern \"C\" PKC_EXPORT const char *pkc_footprint_v1(void) {");
  HAS(cpp, "{\\\"entity\\\": \\\"jacobi\\\", \\\"kernel\\\": \\\"jacobi\\\", \\\"views\\\": "
           "{\\\"unew\\\": {\\\"mode\\\": \\\"w\\\", \\\"dims\\\": [[0, 0, 0], [1, 0, 0]]}, "
           "\\\"u\\\": {\\\"mode\\\": \\\"r\\\", \\\"dims\\\": [[0, -1, 1], [1, -1, 1]]}}, "
           "\\\"gate\\\": true}\\n\"");
  /* the entry point passes the gate pk.Graph may set (pkc_gate) */
  HAS(cpp, ", policy->gate);");
  free(cpp);
  pki_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stencil_windows),
      cmocka_unit_test(test_constants_loops_and_indirection),
      cmocka_unit_test(test_reductions_and_teams_unplanned),
      cmocka_unit_test(test_table_text),
  };
  return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
