/* test_frontend.c - the frontend's lowering (pkf_lower) and diagnostics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "frontend_test_util.h"

/* Asserts that d has a diagnostic at line:col whose message contains text. */
static void expect_diag(const pki_diags *d, unsigned line, unsigned col, const char *text) {
  for (int i = 0; i < d->n; i++)
    if (d->items[i].span.line == line && d->items[i].span.col == col &&
        strstr(d->items[i].message, text))
      return;
  for (int i = 0; i < d->n; i++)
    print_error("  got %u:%u: %s\n", d->items[i].span.line, d->items[i].span.col,
                d->items[i].message);
  fail_msg("no diagnostic %u:%u containing '%s'", line, col, text);
}

static const char *NSTREAM =
    "import pykokkos as pk\n"
    "\n"
    "@pk.workunit\n"
    "def nstream(i: int, A: pk.View1D[pk.double], B: pk.View1D[pk.double],\n"
    "            C: pk.View1D[pk.double], scalar: float):\n"
    "    \"\"\"docstring\"\"\"\n"
    "    A[i] += B[i] + scalar * C[i]\n"
    "    pass\n"
    "\n"
    "@pk.workunit\n"
    "def dot(i: int, acc: pk.Acc[pk.double], x: pk.View1D[int]):\n"
    "    acc += x[i]\n"
    "\n"
    "@pk.workunit\n"
    "def prefix(i: int, acc: pk.Acc[pk.int64], final: bool, x: pk.View1D[pk.int64]):\n"
    "    acc += x[i]\n"
    "    if final:\n"
    "        x[i] = acc\n"
    "\n"
    "def host():\n"
    "    pk.parallel_for(10, nstream, A=None)\n";

static void test_nstream(void **state) {
  (void)state;
  pki_module *m = lower_ok(NSTREAM);
  assert_int_equal(m->nentities, 3);
  pki_entity *e = m->entities[0];
  assert_int_equal(e->kind, PKI_ENT_WORKUNIT);
  assert_string_equal(e->name, "nstream");
  assert_int_equal(e->nfuncs, 1);
  pki_func *f = e->funcs[0];
  assert_true(f->is_workunit);
  assert_int_equal(f->pattern, PKI_PATTERN_FOR);
  assert_int_equal(f->policy, PKI_POLICY_RANGE);
  assert_int_equal(f->nindex, 1);
  assert_string_equal(f->index[0]->name, "i");
  assert_int_equal(f->index[0]->kind, PKI_VAR_INDEX);
  assert_int_equal(f->index[0]->type.kind, PKI_I64);
  assert_int_equal(f->nparams, 4);
  const char *names[] = {"A", "B", "C", "scalar"};
  for (int k = 0; k < 4; k++)
    assert_string_equal(f->params[k]->name, names[k]);
  assert_int_equal(f->params[0]->type.kind, PKI_VIEW);
  assert_int_equal(f->params[0]->type.elem, PKI_F64);
  assert_int_equal(f->params[0]->type.rank, 1);
  assert_int_equal(f->params[3]->type.kind, PKI_F64);
  /* docstring and pass are dropped: one statement */
  assert_int_equal(f->body.n, 1);
  pki_stmt *s = f->body.stmts[0];
  assert_int_equal(s->kind, PKI_S_AUGASSIGN);
  assert_int_equal(s->op, PKI_OP_ADD);
  assert_int_equal(s->span.line, 7);
  assert_int_equal(s->span.col, 5);
  assert_int_equal(s->target->kind, PKI_E_INDEX);
  assert_int_equal(s->target->nargs, 2);
  assert_ptr_equal(s->target->args[0]->var, f->params[0]);
  assert_ptr_equal(s->target->args[1]->var, f->index[0]);
  assert_int_equal(s->value->kind, PKI_E_BINARY);
  assert_int_equal(s->value->op, PKI_OP_ADD);
  assert_int_equal(s->value->args[1]->op, PKI_OP_MUL);

  pki_func *dot = m->entities[1]->funcs[0];
  assert_int_equal(dot->pattern, PKI_PATTERN_REDUCE);
  assert_non_null(dot->acc);
  assert_int_equal(dot->acc->type.kind, PKI_F64);
  assert_null(dot->final);
  assert_int_equal(dot->nparams, 1);
  assert_int_equal(dot->params[0]->type.elem, PKI_I32); /* int as View element */

  pki_func *scan = m->entities[2]->funcs[0];
  assert_int_equal(scan->pattern, PKI_PATTERN_SCAN);
  assert_non_null(scan->final);
  assert_int_equal(scan->acc->type.kind, PKI_I64);
  assert_int_equal(scan->nparams, 1);
  assert_int_equal(scan->body.stmts[1]->kind, PKI_S_IF);
  assert_ptr_equal(scan->body.stmts[1]->cond->var, scan->final);
  pki_module_free(m);
}

static void test_functor(void **state) {
  (void)state;
  const char *src = "import pykokkos as pk\n"
                    "@pk.functor\n"
                    "class F:\n"
                    "    def __init__(self, n: int, v):\n"
                    "        self.n: int = n\n"
                    "        self.v: pk.View1D[pk.float] = v\n"
                    "        self.x = 1\n"
                    "    @pk.function\n"
                    "    def g(self, a: float) -> float:\n"
                    "        return a * self.n\n"
                    "    @pk.workunit\n"
                    "    def run(self, i: int):\n"
                    "        self.v[i] = self.g(1.5)\n";
  pki_module *m = lower_ok(src);
  assert_int_equal(m->nentities, 1);
  pki_entity *e = m->entities[0];
  assert_int_equal(e->kind, PKI_ENT_FUNCTOR);
  assert_string_equal(e->name, "F");
  assert_int_equal(e->nmembers, 2);
  assert_string_equal(e->members[0]->name, "n");
  assert_int_equal(e->members[0]->type.kind, PKI_I64);
  assert_string_equal(e->members[1]->name, "v");
  assert_int_equal(e->members[1]->type.elem, PKI_F32);
  assert_int_equal(e->nfuncs, 2);
  pki_func *g = e->funcs[0], *run = e->funcs[1];
  assert_false(g->is_workunit);
  assert_true(g->ret_annotated);
  assert_int_equal(g->ret.kind, PKI_F64);
  assert_int_equal(g->nparams, 1); /* self skipped */
  assert_true(run->is_workunit);
  assert_int_equal(run->nparams, 0);
  pki_stmt *s = run->body.stmts[0];
  assert_int_equal(s->kind, PKI_S_ASSIGN);
  assert_ptr_equal(s->target->args[0]->var, e->members[1]);
  assert_int_equal(s->value->kind, PKI_E_CALL);
  assert_ptr_equal(s->value->func, g);
  pki_module_free(m);
}

static void test_statements(void **state) {
  (void)state;
  const char *src = "import pykokkos as pk\n"
                    "import math\n"
                    "@pk.workunit\n"
                    "def k(i: int, v: pk.View2D[float], n: int):\n"
                    "    t = 0.0\n"
                    "    for j in range(n):\n"
                    "        if 0 < j < n:\n"
                    "            t += v[i][j]\n"
                    "        elif j == 0:\n"
                    "            t = math.sqrt(int(t))\n"
                    "        else:\n"
                    "            break\n"
                    "    v[i, 0] = t + math.pi\n"
                    "    pk.printf(\"%d\\n\", i)\n";
  pki_diags d;
  pki_module *m = lower_quiet(src, &d);
  assert_int_equal(d.n, 0);
  pki_func *f = m->entities[0]->funcs[0];
  assert_int_equal(f->body.n, 4);
  pki_stmt *decl = f->body.stmts[0], *loop = f->body.stmts[1];
  assert_int_equal(decl->kind, PKI_S_DECL);
  assert_int_equal(decl->var->type.kind, PKI_VOID); /* inferred by pki_check */
  assert_int_equal(f->nlocals, 2);
  assert_int_equal(loop->kind, PKI_S_FOR);
  assert_int_equal(loop->var->type.kind, PKI_I64);
  assert_int_equal(loop->begin->kind, PKI_E_INT);
  assert_int_equal(loop->begin->ival, 0);
  assert_int_equal(loop->step->ival, 1);
  pki_stmt *ifs = loop->body.stmts[0];
  assert_int_equal(ifs->kind, PKI_S_IF);
  /* chained comparison: (0 < j) and (j < n) */
  assert_int_equal(ifs->cond->kind, PKI_E_LOGICAL);
  assert_int_equal(ifs->cond->op, PKI_OP_AND);
  assert_int_equal(ifs->cond->args[0]->kind, PKI_E_COMPARE);
  assert_int_equal(ifs->cond->args[1]->op, PKI_OP_LT);
  /* v[i][j] flattened to one INDEX with two indices */
  assert_int_equal(ifs->body.stmts[0]->value->kind, PKI_E_INDEX);
  assert_int_equal(ifs->body.stmts[0]->value->nargs, 3);
  /* elif is a nested IF in orelse; t is assigned (outer decl), not redeclared */
  pki_stmt *elif = ifs->orelse.stmts[0];
  assert_int_equal(elif->kind, PKI_S_IF);
  assert_int_equal(elif->body.stmts[0]->kind, PKI_S_ASSIGN);
  pki_expr *call = elif->body.stmts[0]->value;
  assert_int_equal(call->kind, PKI_E_BUILTIN);
  assert_int_equal(call->builtin, PKI_BUILTIN_SQRT);
  assert_int_equal(call->args[0]->kind, PKI_E_CAST);
  assert_int_equal(call->args[0]->type.kind, PKI_I64);
  assert_int_equal(elif->orelse.stmts[0]->kind, PKI_S_BREAK);
  pki_stmt *last = f->body.stmts[2];
  assert_int_equal(last->target->nargs, 3);
  assert_string_equal(last->value->args[1]->str, "pi");
  pki_stmt *pf = f->body.stmts[3];
  assert_int_equal(pf->kind, PKI_S_PRINTF);
  assert_int_equal(pf->nargs, 2);
  assert_string_equal(pf->args[0]->str, "%d\n");
  pki_module_free(m);
}

static void test_scope_rule(void **state) {
  (void)state;
  const char *src = "import pykokkos as pk\n"
                    "@pk.workunit\n"
                    "def k(i: int, v: pk.View1D[float]):\n"
                    "    if i > 0:\n"
                    "        t = 1.0\n"
                    "    v[i] = t\n";
  pki_diags d;
  pki_module *m = lower_quiet(src, &d);
  assert_int_equal(d.errors, 1);
  expect_diag(&d, 6, 12, "name 't' is not defined here: it was bound inside the 'if' at 4:5");
  assert_string_equal(d.items[0].code, "scope");
  pki_module_free(m);
}

static void test_diagnostics(void **state) {
  (void)state;
  const char *src = "import pykokkos as pk\n"
                    "@pk.workunit\n"
                    "def k(i: int, v: pk.View1D[float], s):\n"
                    "    v[i] = y\n"
                    "    break\n"
                    "    v[i] = math.sqrt(1.0)\n"
                    "    a, b = 1, 2, 3\n"
                    "    v[i] = abs(1, 2)\n"
                    "@pk.workload\n"
                    "class W:\n"
                    "    pass\n";
  pki_diags d;
  pki_module *m = lower_quiet(src, &d);
  expect_diag(&d, 3, 36, "the type of parameter 's' of 'k' is taken from the arguments at run time");
  expect_diag(&d, 4, 12, "name 'y' is not defined");
  expect_diag(&d, 5, 5, "'break' outside a loop");
  expect_diag(&d, 6, 12, "name 'math' is not defined"); /* math not imported */
  expect_diag(&d, 7, 5, "this assignment unpacks 3 values into 2 targets");
  expect_diag(&d, 8, 12, "wrong number of arguments to 'abs'");
  /* a workload without @pk.main is a functor (PyKokkos): no diagnostic at 10:7 */
  assert_int_equal(d.errors, 5); /* the first is a note now */
  pki_module_free(m);
}

static void test_syntax_error(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = lower_quiet("import pykokkos as pk\nx = = 1\n", &d);
  assert_int_equal(d.errors, 1);
  expect_diag(&d, 2, 5, "syntax error");
  assert_string_equal(d.items[0].code, "syntax-error");
  pki_module_free(m);
}

static char *render(const pki_diags *d, pkf_diag_format fmt) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  const pki_diags *files[1] = {d};
  pkf_render_diags(f, files, 1, fmt, false, "9.9");
  fclose(f);
  return buf;
}

static void test_render(void **state) {
  (void)state;
  pki_diags d;
  pki_module *m = lower_quiet("import pykokkos as pk\n@pk.workunit\ndef k(i: int):\n"
                        "\tz = \"q\" + 1.0\n", &d);
  char *text = render(&d, PKF_DIAG_TEXT);
  assert_string_equal(text, "t.py:4:6: error: strings are only allowed as the format of "
                            "pk.printf(...)\n\tz = \"q\" + 1.0\n\t    ^~~\n");
  free(text);
  char *json = render(&d, PKF_DIAG_JSON);
  assert_non_null(strstr(json, "{\"version\":1,\"files\":[{\"file\":\"t.py\",\"diagnostics\":"
                               "[{\"severity\":\"error\",\"line\":4,\"column\":6,"
                               "\"end_line\":4,\"end_column\":9,\"code\":\"unsupported-expression\""));
  free(json);
  char *sarif = render(&d, PKF_DIAG_SARIF);
  assert_non_null(strstr(sarif, "\"version\":\"2.1.0\""));
  assert_non_null(strstr(sarif, "\"ruleId\":\"unsupported-expression\""));
  assert_non_null(strstr(sarif, "\"region\":{\"startLine\":4,\"startColumn\":6,\"endLine\":4,"
                                "\"endColumn\":9}"));
  free(sarif);
  pki_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nstream),     cmocka_unit_test(test_functor),
      cmocka_unit_test(test_statements),  cmocka_unit_test(test_scope_rule),
      cmocka_unit_test(test_diagnostics), cmocka_unit_test(test_syntax_error),
      cmocka_unit_test(test_render),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
