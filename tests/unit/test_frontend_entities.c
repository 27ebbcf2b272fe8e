/* test_frontend_entities.c - the entities layer of the frontend: classtypes,
 * workloads (@pk.main host IR), call-site inference, module constants and
 * pk.ViewTypeInfo decorator arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "frontend_test_util.h"

static const char *CLASSTYPE =
    "import pykokkos as pk\n"
    "@pk.workunit\n"
    "def k(i: int, A: pk.View1D[pk.double], w: \"Vec3\"):\n"
    "    v = Vec3(1.0, 2.0, 3.0)\n"
    "    v.x = 4.0\n"
    "    A[i] = v.dot(w)\n"
    "@pk.classtype\n"
    "class Vec3:\n"
    "    def __init__(self, x: float, y: float, z: float):\n"
    "        self.x: float = x\n"
    "        self.y: float = y\n"
    "        self.z = z\n"
    "    @pk.function\n"
    "    def dot(self, o: Vec3) -> float:\n"
    "        return self.x * o.x + self.y * o.y + self.z * o.z\n";

static void test_classtype(void **state) {
  (void)state;
  pki_module *m = lower_ok(CLASSTYPE);
  pki_entity *e = entity(m, "Vec3");
  assert_int_equal(e->kind, PKI_ENT_CLASSTYPE);
  assert_ptr_equal(m->entities[0], e); /* classtypes come first (emitted before use) */
  assert_int_equal(e->nmembers, 3);
  assert_string_equal(e->members[2]->name, "z");
  assert_int_equal(e->members[2]->type.kind, PKI_F64); /* from the ctor parameter */
  assert_int_equal(e->nfuncs, 2);
  pki_func *ctor = e->funcs[0], *dot = e->funcs[1];
  assert_true(ctor->is_ctor && ctor->is_method);
  assert_int_equal(ctor->nparams, 3);
  assert_int_equal(ctor->body.n, 3);
  assert_int_equal(ctor->body.stmts[0]->kind, PKI_S_ASSIGN);
  assert_ptr_equal(ctor->body.stmts[0]->target->var, e->members[0]);
  assert_true(dot->is_method && !dot->is_ctor);
  assert_int_equal(dot->nparams, 1);
  assert_int_equal(dot->params[0]->type.kind, PKI_CLASS);
  assert_ptr_equal(dot->params[0]->type.cls, e);
  assert_int_equal(dot->ret.kind, PKI_F64);
  pki_func *k = entity(m, "k")->funcs[0];
  assert_int_equal(k->params[1]->type.kind, PKI_CLASS); /* quoted "Vec3" */
  assert_int_equal(k->body.n, 3);
  pki_stmt *decl = k->body.stmts[0];
  assert_int_equal(decl->kind, PKI_S_DECL);
  assert_int_equal(decl->var->type.kind, PKI_CLASS);
  assert_int_equal(decl->value->kind, PKI_E_CONSTRUCT);
  assert_int_equal(decl->value->nargs, 3);
  pki_expr *field = k->body.stmts[1]->target;
  assert_int_equal(field->kind, PKI_E_FIELD);
  assert_string_equal(field->str, "x");
  assert_ptr_equal(field->var, e->members[0]);
  pki_expr *call = k->body.stmts[2]->value;
  assert_int_equal(call->kind, PKI_E_CALL);
  assert_ptr_equal(call->func, dot);
  assert_int_equal(call->nargs, 2);
  assert_ptr_equal(call->args[0]->var, decl->var); /* receiver */
  pki_module_free(m);
}

static const char *WORKLOAD =
    "import pykokkos as pk\n"
    "@pk.workload(A=pk.ViewTypeInfo(layout=pk.LayoutLeft))\n"
    "class W:\n"
    "    def __init__(self, n: int):\n"
    "        self.n: int = n\n"
    "        self.total: float = 0.0\n"
    "        self.A: pk.View1D[pk.double] = pk.View([n], pk.double)\n"
    "    @pk.main\n"
    "    def run(self):\n"
    "        t = pk.Timer()\n"
    "        pk.parallel_for(\"fill\", pk.RangePolicy(0, self.n), self.fill)\n"
    "        self.total = pk.parallel_reduce(self.n, lambda i, acc: acc + self.A[i])\n"
    "        s = t.seconds()\n"
    "    @pk.workunit\n"
    "    def fill(self, i: int):\n"
    "        self.A[i] = i\n"
    "    @pk.callback\n"
    "    def show(self):\n"
    "        print(self.total)\n";

static void test_workload(void **state) {
  (void)state;
  pki_module *m = lower_ok(WORKLOAD);
  pki_entity *e = entity(m, "W");
  assert_int_equal(e->kind, PKI_ENT_WORKLOAD);
  assert_int_equal(e->nmembers, 3);
  assert_int_equal(e->members[2]->type.layout, PKI_LAYOUT_LEFT);
  assert_int_equal(e->nfuncs, 2); /* the callback is not translated */
  pki_func *run = e->funcs[0], *fill = e->funcs[1];
  assert_true(run->is_main);
  assert_int_equal(run->body.n, 4);
  pki_stmt *s0 = run->body.stmts[0], *s1 = run->body.stmts[1], *s2 = run->body.stmts[2];
  assert_int_equal(s0->kind, PKI_S_DECL);
  assert_int_equal(s0->var->type.kind, PKI_TIMER);
  assert_int_equal(s0->value->intrinsic, PKI_INTRINSIC_TIMER_NEW);
  assert_int_equal(s1->kind, PKI_S_DISPATCH);
  assert_int_equal(s1->pattern, PKI_PATTERN_FOR);
  assert_int_equal(s1->range, PKI_POLICY_RANGE);
  assert_string_equal(s1->str, "fill");
  assert_int_equal(s1->nargs, 2);
  assert_ptr_equal(s1->closure, fill);
  assert_null(s1->target);
  assert_int_equal(s2->kind, PKI_S_DISPATCH);
  assert_int_equal(s2->pattern, PKI_PATTERN_REDUCE);
  assert_int_equal(s2->args[0]->kind, PKI_E_INT);
  assert_ptr_equal(s2->target->var, e->members[1]);
  pki_func *lam = s2->closure;
  assert_true(lam->is_closure);
  assert_int_equal(run->nclosures, 1);
  assert_ptr_equal(run->closures[0], lam);
  assert_ptr_equal(lam->parent, run);
  assert_int_equal(lam->nindex, 1);
  assert_int_equal(lam->acc->type.kind, PKI_F64);
  assert_int_equal(lam->body.n, 1);
  assert_int_equal(lam->body.stmts[0]->kind, PKI_S_AUGASSIGN);
  assert_int_equal(lam->body.stmts[0]->op, PKI_OP_ADD);
  assert_ptr_equal(lam->body.stmts[0]->target->var, lam->acc);
  assert_int_equal(lam->body.stmts[0]->value->kind, PKI_E_INDEX);
  assert_int_equal(run->body.stmts[3]->value->intrinsic, PKI_INTRINSIC_TIMER_SECONDS);
  pki_module_free(m);
}

static const char *INFER =
    "import pykokkos as pk\n"
    "SCALE = 2 * 1.5\n"
    "N: int = 4 + 6\n"
    "@pk.workunit\n"
    "def k(i: int, x, n):\n"
    "    x[i] = n * SCALE + N\n"
    "def host():\n"
    "    n = 10\n"
    "    x = pk.View([n], pk.double)\n"
    "    pk.parallel_for(n, k, x=x, n=n)\n"
    "    pk.parallel_for(n, k, x=pk.View([5], dtype=pk.float64), n=len(x))\n";

static void test_inference_and_constants(void **state) {
  (void)state;
  pki_module *m = lower_ok(INFER);
  pki_func *k = entity(m, "k")->funcs[0];
  assert_int_equal(k->nparams, 2);
  assert_int_equal(k->params[0]->type.kind, PKI_VIEW);
  assert_int_equal(k->params[0]->type.rank, 1);
  assert_int_equal(k->params[0]->type.elem, PKI_F64);
  assert_int_equal(k->params[1]->type.kind, PKI_I64);
  pki_expr *v = k->body.stmts[0]->value; /* (n * SCALE) + N */
  pki_expr *scale = v->args[0]->args[1], *n = v->args[1];
  assert_int_equal(scale->kind, PKI_E_FLOAT);
  assert_true(scale->fval == 3.0);
  assert_string_equal(scale->cname, "SCALE");
  assert_int_equal(n->kind, PKI_E_INT);
  assert_int_equal(n->ival, 10);
  assert_string_equal(n->cname, "N");
  pki_module_free(m);
}

static void test_inference_conflict(void **state) {
  (void)state;
  pki_diags d;
  memset(&d, 0, sizeof d);
  const char *src = "import pykokkos as pk\n"
                    "@pk.workunit\n"
                    "def k(i: int, s):\n"
                    "    pass\n"
                    "pk.parallel_for(3, k, s=1)\n"
                    "pk.parallel_for(3, k, s=1.5)\n";
  /* two call sites disagree: typed at run time (a note), built per signature */
  pki_module *m = pkf_lower("t.py", src, strlen(src), &d);
  assert_int_equal(d.errors, 0);
  assert_int_equal(d.n, 1);
  assert_int_equal(d.items[0].severity, PKI_SEV_NOTE);
  assert_int_equal(d.items[0].span.line, 3);
  assert_int_equal(d.items[0].span.col, 15);
  assert_non_null(strstr(d.items[0].message, "parameter 's' of 'k' is taken from the arguments"));
  assert_true(m->entities[0]->funcs[0]->runtime_typed);
  pki_module_free(m);
  /* --strict-types: the same is an error */
  memset(&d, 0, sizeof d);
  pkf_options o = {.strict_types = true};
  m = pkf_lower_with("t.py", src, strlen(src), &o, &d);
  assert_int_equal(d.errors, 1);
  assert_int_equal(d.items[0].span.col, 15);
  assert_non_null(strstr(d.items[0].message, "cannot infer the type of parameter 's' of 'k'"));
  pki_module_free(m);
}

/* Issue 22 item 2: no fixed limit on program size. A workunit and a host
 * lambda before 10,000 top-level statements, and a member set after 400
 * statements of __init__, are all seen. */
static void test_large_program(void **state) {
  (void)state;
  enum { N = 10000 };
  size_t cap = 64 * N + 4096, len = 0;
  char *src = malloc(cap);
  len += (size_t)snprintf(src + len, cap - len,
                          "import pykokkos as pk\n"
                          "@pk.workunit\n"
                          "def k(i: int, A: pk.View1D[pk.double]):\n"
                          "    A[i] = 1.0\n"
                          "B = pk.View([4], pk.double)\n"
                          "pk.parallel_for(4, lambda i: B[i] + 1.0)\n"
                          "class App:\n"
                          "    def __init__(self):\n");
  for (int i = 0; i < 400; i++)
    len += (size_t)snprintf(src + len, cap - len, "        t%d = %d\n", i, i);
  len += (size_t)snprintf(src + len, cap - len,
                          "        self.n = 5\n"
                          "        pk.parallel_for(4, u, n=self.n)\n"
                          "@pk.workunit\n"
                          "def u(i: int, n):\n"
                          "    pass\n");
  for (int i = 0; i < N; i++)
    len += (size_t)snprintf(src + len, cap - len, "x%d = %d\n", i, i);
  pki_diags d;
  memset(&d, 0, sizeof d);
  pki_module *m = pkf_lower("t.py", src, len, &d);
  assert_int_equal(d.errors, 0);
  assert_int_equal(entity(m, "k")->funcs[0]->nparams, 1);
  pki_func *u = entity(m, "u")->funcs[0];
  assert_int_equal(u->params[0]->type.kind, PKI_I64); /* self.n, seen after 400 statements */
  assert_false(u->runtime_typed);
  bool lambda = false;
  for (int i = 0; i < m->nentities; i++)
    lambda |= !strncmp(m->entities[i]->name, "pkc_lambda_", 11);
  assert_true(lambda);
  pki_module_free(m);
  free(src);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_large_program),
      cmocka_unit_test(test_classtype),
      cmocka_unit_test(test_workload),
      cmocka_unit_test(test_inference_and_constants),
      cmocka_unit_test(test_inference_conflict),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
