/*
 * test_print.c - unit tests of pki_print (ir/print.c): the stable text form
 * of checked IR, compared line by line against expected strings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir_build.h"

/* Prints m into a malloc'd string (caller frees). */
static char *print_to_string(const pki_module *m) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  pki_print(m, f);
  fclose(f);
  return buf;
}

static void check_and_compare(pki_module *m, const char *expected) {
  pki_diags d;
  pki_diags_init(&d, m->arena, m->path, "", 0);
  assert_int_equal(pki_check(m, &d), 0);
  char *got = print_to_string(m);
  if (strcmp(got, expected) != 0)
    fprintf(stderr, "--- expected\n%s--- got\n%s", expected, got);
  assert_string_equal(got, expected);
  free(got);
}

/* FunctionSty nstream: A[i] += B[i] + scalar * C[i] */
static void test_print_nstream(void **state) {
  (void)state;
  pki_module *m = mk_module();
  pki_func *f = mk_workunit(m, "nstream", PKI_PATTERN_FOR);
  pki_type v1 = pki_view(PKI_F64, 1, PKI_LAYOUT_DEFAULT);
  pki_var *A = add_param(m, f, "A", v1), *B = add_param(m, f, "B", v1);
  pki_var *C = add_param(m, f, "C", v1);
  pki_var *s = add_param(m, f, "scalar", pki_float_type);
  pki_var *i = f->index[0];
  s_assign(m, &f->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_index1(m, A, e_var(m, i)),
           BIN(m, PKI_OP_ADD, e_index1(m, B, e_var(m, i)),
               BIN(m, PKI_OP_MUL, e_var(m, s), e_index1(m, C, e_var(m, i)))),
           sp(3, 5));
  check_and_compare(
      m, "module t (tests/t.py)\n"
         "workunit nstream [entity nstream] pattern=for policy=range @2:5\n"
         "  index i: int64\n"
         "  param A: View1D[float64] rw\n"
         "  param B: View1D[float64] r\n"
         "  param C: View1D[float64] r\n"
         "  param scalar: float64 r\n"
         "  body:\n"
         "    augassign (index:float64 A i) += (+:float64 (index:float64 B i) "
         "(*:float64 scalar (index:float64 C i))) @3:5\n");
  pki_module_free(m);
}

/* A functor with members, a device function, a reduction with loops,
 * conditionals, casts and pk.printf. */
static void test_print_functor(void **state) {
  (void)state;
  pki_module *m = mk_module();
  pki_entity *e = pki_new_entity(m, PKI_ENT_FUNCTOR, "Work", sp(1, 7));
  pki_module_add_entity(m, e);
  pki_var *X = pki_new_var(m, "x", PKI_VAR_MEMBER,
                           pki_view(PKI_F32, 2, PKI_LAYOUT_RIGHT), sp(3, 9));
  X->type.traits = PKI_TRAIT_ATOMIC;
  pki_var *n = pki_new_var(m, "n", PKI_VAR_MEMBER, pki_scalar(PKI_I32), sp(4, 9));
  pki_entity_add_member(m, e, X);
  pki_entity_add_member(m, e, n);

  /* @pk.function def half(v: float) -> float: return v / 2 */
  pki_func *half = pki_new_func(m, "half", sp(6, 9));
  half->ret = pki_float_type;
  half->ret_annotated = true;
  pki_var *v = add_param(m, half, "v", pki_float_type);
  pki_stmt *r = pki_new_stmt(m, PKI_S_RETURN, sp(7, 9));
  r->value = BIN(m, PKI_OP_DIV, e_var(m, v), e_int(m, 2));
  s_push(m, &half->body, r);

  /* @pk.workunit def run(self, i, acc: pk.Acc[float]):
   *   for j in range(self.n):
   *     if j % 2 == 0: acc += half(self.x[i][j])
   *     else: pk.printf("odd %d\n", j)
   *   t = -1.5e300 ; k: pk.int32 = 7 */
  pki_func *run = pki_new_func(m, "run", sp(9, 9));
  run->is_workunit = true;
  run->pattern = PKI_PATTERN_REDUCE;
  pki_var *i = pki_new_var(m, "i", PKI_VAR_INDEX, pki_int_type, sp(9, 19));
  pki_func_add_index(m, run, i);
  run->acc = pki_new_var(m, "acc", PKI_VAR_ACC, pki_float_type, sp(9, 22));
  pki_entity_add_func(m, e, run);
  pki_entity_add_func(m, e, half);
  pki_stmt *fs = pki_new_stmt(m, PKI_S_FOR, sp(10, 9));
  fs->var = pki_new_var(m, "j", PKI_VAR_LOCAL, pki_void_type, sp(10, 13));
  fs->begin = e_int(m, 0);
  fs->end = e_var(m, n);
  fs->step = e_int(m, 1);
  s_push(m, &run->body, fs);
  pki_stmt *ifs = pki_new_stmt(m, PKI_S_IF, sp(11, 13));
  ifs->cond = CMP(m, PKI_OP_EQ, BIN(m, PKI_OP_MOD, e_var(m, fs->var), e_int(m, 2)),
                  e_int(m, 0));
  s_push(m, &fs->body, ifs);
  pki_expr *ij[2] = {e_var(m, i), e_var(m, fs->var)};
  pki_expr *ha[1] = {e_index(m, X, 2, ij)};
  s_assign(m, &ifs->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_var(m, run->acc),
           e_call(m, half, 1, ha, sp(12, 24)), sp(12, 17));
  pki_stmt *pf = pki_new_stmt(m, PKI_S_PRINTF, sp(14, 17));
  pf->nargs = 2;
  pf->args = pki_alloc(m->arena, 2 * sizeof(pki_expr *));
  pf->args[0] = e_str(m, "odd \"%d\"\n");
  pf->args[1] = e_var(m, fs->var);
  s_push(m, &ifs->orelse, pf);
  pki_var *t = local(m, "t", pki_void_type);
  pki_expr *neg = pki_new_expr_n(m, PKI_E_UNARY, sp(15, 13), 1);
  neg->op = PKI_OP_NEG;
  neg->args[0] = e_float(m, 1.5e300);
  s_decl(m, run, t, neg, sp(15, 9));
  pki_var *k = local(m, "k", pki_scalar(PKI_I32));
  k->annotated = true;
  s_decl(m, run, k, e_int(m, 7), sp(16, 9));

  check_and_compare(
      m, "module t (tests/t.py)\n"
         "functor Work @1:7\n"
         "  member x: View2D[float32, LayoutRight, Atomic] r\n"
         "  member n: int32 r\n"
         "  workunit run pattern=reduce policy=range reducer=sum @9:9\n"
         "    index i: int64\n"
         "    acc acc: float64 rw\n"
         "    body:\n"
         "      for j: int64 in range(0, cast<int64>(n), 1) @10:9\n"
         "        if (==:bool (%:int64 j 2) 0) @11:13\n"
         "          augassign acc += (call half:float64 "
         "cast<float64>((index:float32 x i j))) @12:17\n"
         "        else\n"
         "          printf \"odd \\\"%lld\\\"\\n\" j @14:17\n"
         "      decl t: float64 = (neg:float64 1.5e+300) @15:9\n"
         "      decl k: int32 = cast<int32>(7) @16:9\n"
         "  function half -> float64 @6:9\n"
         "    param v: float64 r\n"
         "    body:\n"
         "      return (/:float64 v cast<float64>(2)) @7:9\n");
  pki_module_free(m);
}

/* Unchecked, partial IR prints without crashing; untyped nodes show None. */
static void test_print_unchecked(void **state) {
  (void)state;
  pki_module *m = mk_module();
  pki_func *f = mk_function(m, "f", pki_void_type);
  pki_expr *b = pki_new_expr_n(m, PKI_E_BINARY, sp(1, 1), 2);
  b->op = PKI_OP_SUB;
  b->args[0] = e_int(m, 1);
  pki_stmt *r = pki_new_stmt(m, PKI_S_RETURN, sp(11, 5));
  r->value = b;
  s_push(m, &f->body, r);
  s_push(m, &f->body, pki_new_stmt(m, PKI_S_DECL, sp(12, 5)));
  pki_stmt *w = pki_new_stmt(m, PKI_S_WHILE, sp(13, 5));
  w->cond = e_bool(m, 0);
  s_push(m, &w->body, pki_new_stmt(m, PKI_S_BREAK, sp(14, 9)));
  s_push(m, &f->body, w);
  char *got = print_to_string(m);
  assert_string_equal(got, "module t (tests/t.py)\n"
                           "function f [entity f] -> None @10:5\n"
                           "  body:\n"
                           "    return (-:None 1 <null>) @11:5\n"
                           "    decl <null> @12:5\n"
                           "    while False @13:5\n"
                           "      break @14:9\n");
  free(got);
  pki_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_print_nstream),
      cmocka_unit_test(test_print_functor),
      cmocka_unit_test(test_print_unchecked),
  };
  return cmocka_run_group_tests_name("print", tests, NULL, NULL);
}
