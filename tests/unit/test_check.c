/*
 * test_check.c - unit tests of pki_check (ir/check*.c): typing, cast
 * insertion, inference, rule diagnostics (text and span), printf rewriting,
 * recursion and access modes. IR is built by hand (tests/unit/ir_build.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "check_test_util.h"

/* ------------------------------------------------------------- typing */

static void test_mixed_arith(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *i = f->index[0];
  pki_var *y = local(m, "y", pki_void_type);
  pki_stmt *s = s_decl(m, f, y, BIN(m, PKI_OP_ADD, e_var(m, i), e_float(m, 2.5)), sp(3, 5));
  pki_var *z = local(m, "z", pki_void_type);
  pki_stmt *t = s_decl(m, f, z, BIN(m, PKI_OP_MUL, e_var(m, i), e_int(m, 3)), sp(4, 5));
  pki_var *b = local(m, "b", pki_void_type);
  pki_stmt *u = s_decl(m, f, b, BIN(m, PKI_OP_ADD, e_bool(m, 1), e_bool(m, 1)), sp(5, 5));
  assert_int_equal(check_ok(x), 0);
  assert_int_equal(y->type.kind, PKI_F64);
  assert_int_equal(s->value->type.kind, PKI_F64);
  assert_cast_of(s->value->args[0], PKI_F64, PKI_E_VAR);
  assert_int_equal(s->value->args[1]->kind, PKI_E_FLOAT); /* no cast needed */
  assert_int_equal(z->type.kind, PKI_I64);
  assert_int_equal(t->value->args[0]->kind, PKI_E_VAR);
  assert_int_equal(t->value->args[1]->kind, PKI_E_INT);
  assert_int_equal(b->type.kind, PKI_I64); /* True + True == 2 */
  assert_cast_of(u->value->args[0], PKI_I64, PKI_E_BOOL);
}

static void test_true_division(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *a = add_param(m, f, "a", KT(F32));
  pki_var *q = local(m, "q", pki_void_type);
  pki_stmt *s = s_decl(m, f, q, BIN(m, PKI_OP_DIV, e_var(m, f->index[0]), e_int(m, 2)), sp(3, 5));
  pki_var *r = local(m, "r", pki_void_type);
  pki_stmt *t = s_decl(m, f, r, BIN(m, PKI_OP_DIV, e_var(m, a), e_var(m, a)), sp(4, 5));
  pki_var *fd = local(m, "fd", pki_void_type);
  s_decl(m, f, fd, BIN(m, PKI_OP_FLOORDIV, e_var(m, f->index[0]), e_int(m, 2)), sp(5, 5));
  pki_var *p = local(m, "p", pki_void_type);
  s_decl(m, f, p, BIN(m, PKI_OP_POW, e_int(m, 2), e_int(m, 10)), sp(6, 5));
  pki_var *pf = local(m, "pf", pki_void_type);
  pki_stmt *w = s_decl(m, f, pf, BIN(m, PKI_OP_POW, e_var(m, a), e_int(m, 2)), sp(7, 5));
  assert_int_equal(check_ok(x), 0);
  assert_int_equal(q->type.kind, PKI_F64);
  assert_cast_of(s->value->args[0], PKI_F64, PKI_E_VAR);
  assert_cast_of(s->value->args[1], PKI_F64, PKI_E_INT);
  assert_int_equal(r->type.kind, PKI_F32); /* float32 / float32 stays float32 */
  assert_int_equal(t->value->args[0]->kind, PKI_E_VAR);
  assert_int_equal(fd->type.kind, PKI_I64);
  assert_int_equal(p->type.kind, PKI_I64);
  assert_int_equal(pf->type.kind, PKI_F32); /* float32 ** int stays float32 */
  assert_cast_of(w->value->args[1], PKI_F32, PKI_E_INT);
}

static void test_int32_view_plus_literal(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *A = add_param(m, f, "A", pki_view(PKI_I32, 1, PKI_LAYOUT_DEFAULT));
  pki_var *v = local(m, "v", pki_void_type);
  pki_stmt *s = s_decl(m, f, v,
                       BIN(m, PKI_OP_ADD, e_index1(m, A, e_var(m, f->index[0])), e_int(m, 1)),
                       sp(3, 5));
  pki_var *w = local(m, "w", pki_void_type);
  pki_stmt *t = s_decl(m, f, w, e_index1(m, A, e_int(m, 0)), sp(4, 5));
  /* A[i] = i: int64 into an int32 element is an explicit narrowing cast */
  pki_stmt *u = s_assign(m, &f->body, PKI_S_ASSIGN, 0, e_index1(m, A, e_var(m, f->index[0])),
                         e_var(m, f->index[0]), sp(5, 5));
  assert_int_equal(check_ok(x), 0);
  assert_int_equal(v->type.kind, PKI_I64);
  assert_cast_of(s->value->args[0], PKI_I64, PKI_E_INDEX);
  assert_int_equal(s->value->args[0]->args[0]->type.kind, PKI_I32);
  assert_int_equal(w->type.kind, PKI_I64); /* ints are int64 locals */
  assert_cast_of(t->value, PKI_I64, PKI_E_INDEX);
  assert_cast_of(u->value, PKI_I32, PKI_E_VAR);
}

static void test_unsigned_and_bitwise(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *u = add_param(m, f, "u", KT(U64));
  pki_var *u32 = add_param(m, f, "u32", KT(U32));
  pki_var *d = add_param(m, f, "d", F64);
  pki_var *a = local(m, "a", pki_void_type);
  s_decl(m, f, a, BIN(m, PKI_OP_SUB, e_var(m, u), e_int(m, 1)), sp(3, 5)); /* ok: uint64 */
  pki_var *b = local(m, "b", pki_void_type);
  s_decl(m, f, b, BIN(m, PKI_OP_ADD, e_var(m, u32), e_var(m, f->index[0])), sp(4, 5));
  pki_expr *bad = BIN(m, PKI_OP_ADD, e_var(m, u), e_var(m, f->index[0]));
  bad->span = sp(5, 9);
  s_decl(m, f, local(m, "c", pki_void_type), bad, sp(5, 5));
  pki_expr *bw = BIN(m, PKI_OP_BITAND, e_var(m, d), e_int(m, 1));
  bw->span = sp(6, 9);
  s_decl(m, f, local(m, "e", pki_void_type), bw, sp(6, 5));
  assert_int_equal(pki_check(m, &x->d), 2);
  assert_int_equal(a->type.kind, PKI_U64);
  assert_int_equal(b->type.kind, PKI_I64);
  expect_diag(&x->d, PKI_SEV_ERROR, 5, 9,
              "mixing signed and unsigned 64-bit ints (uint64 and int64); convert one side: "
              "pk.uint64(x) to compute in uint64 (hashes), int(x) in int64");
  expect_diag(&x->d, PKI_SEV_ERROR, 6, 9, "bitwise operator '&' on float; use int(...)");
}

static void test_compare_cond_builtins(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *a = add_param(m, f, "a", KT(F32));
  pki_expr *cmp = CMP(m, PKI_OP_LT, e_var(m, f->index[0]), e_float(m, 0.5));
  pki_expr *cond = pki_new_expr_n(m, PKI_E_COND, sp(3, 9), 3);
  cond->args[0] = e_var(m, f->index[0]); /* int as condition */
  cond->args[1] = e_int(m, 1);
  cond->args[2] = e_float(m, 2.0);
  pki_var *c1 = local(m, "c1", pki_void_type), *c2 = local(m, "c2", pki_void_type);
  pki_stmt *s1 = s_decl(m, f, c1, cmp, sp(3, 5));
  pki_stmt *s2 = s_decl(m, f, c2, cond, sp(4, 5));
  pki_expr *one[1] = {e_var(m, a)};
  pki_var *sq = local(m, "sq", pki_void_type);
  s_decl(m, f, sq, e_builtin(m, PKI_BUILTIN_SQRT, 1, one), sp(5, 5));
  pki_expr *ione[1] = {e_var(m, f->index[0])};
  pki_var *si = local(m, "si", pki_void_type);
  pki_stmt *s3 = s_decl(m, f, si, e_builtin(m, PKI_BUILTIN_SQRT, 1, ione), sp(6, 5));
  pki_expr *mm[2] = {e_var(m, f->index[0]), e_float(m, 1.0)};
  pki_var *mx = local(m, "mx", pki_void_type);
  s_decl(m, f, mx, e_builtin(m, PKI_BUILTIN_MAX, 2, mm), sp(7, 5));
  pki_expr *nn[1] = {e_var(m, a)};
  pki_var *isn = local(m, "isn", pki_void_type);
  s_decl(m, f, isn, e_builtin(m, PKI_BUILTIN_ISNAN, 1, nn), sp(8, 5));
  assert_int_equal(check_ok(x), 0);
  assert_int_equal(c1->type.kind, PKI_BOOL);
  assert_cast_of(s1->value->args[0], PKI_F64, PKI_E_VAR);
  assert_int_equal(c2->type.kind, PKI_F64);
  assert_cast_of(s2->value->args[0], PKI_BOOL, PKI_E_VAR);
  assert_cast_of(s2->value->args[1], PKI_F64, PKI_E_INT);
  assert_int_equal(sq->type.kind, PKI_F32);
  assert_int_equal(si->type.kind, PKI_F64);
  assert_cast_of(s3->value->args[0], PKI_F64, PKI_E_VAR);
  assert_int_equal(mx->type.kind, PKI_F64);
  assert_int_equal(isn->type.kind, PKI_BOOL);
}

/* ------------------------------------------------------ assignment rules */

static void test_assignment_conflicts(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *A = add_param(m, f, "A", pki_view(PKI_I32, 1, PKI_LAYOUT_DEFAULT));
  pki_var *B = add_param(m, f, "B", pki_view(PKI_F32, 1, PKI_LAYOUT_DEFAULT));
  pki_var *xv = local(m, "x", pki_void_type);
  s_decl(m, f, xv, e_int(m, 1), sp(3, 5));
  s_assign(m, &f->body, PKI_S_ASSIGN, 0, e_var(m, xv), e_float(m, 2.5), sp(4, 5));
  s_assign(m, &f->body, PKI_S_ASSIGN, 0, e_index1(m, A, e_int(m, 0)), e_float(m, 1.0),
           sp(5, 5));
  pki_stmt *ok = s_assign(m, &f->body, PKI_S_ASSIGN, 0, e_index1(m, B, e_int(m, 0)),
                          e_float(m, 1.0), sp(6, 5)); /* float64 -> float32: allowed */
  pki_var *y = local(m, "y", pki_void_type);
  s_decl(m, f, y, e_float(m, 0.0), sp(7, 5));
  pki_stmt *up = s_assign(m, &f->body, PKI_S_ASSIGN, 0, e_var(m, y), e_int(m, 3), sp(8, 5));
  s_assign(m, &f->body, PKI_S_AUGASSIGN, PKI_OP_DIV, e_var(m, xv), e_int(m, 2), sp(9, 5));
  pki_expr *ti = e_var(m, f->index[0]);
  ti->span = sp(10, 5);
  s_assign(m, &f->body, PKI_S_ASSIGN, 0, ti, e_int(m, 0), sp(10, 5));
  pki_var *vw = local(m, "vw", pki_void_type);
  pki_expr *av = e_var(m, A);
  av->span = sp(11, 10);
  s_decl(m, f, vw, av, sp(11, 5));
  assert_int_equal(pki_check(m, &x->d), 1);
  expect_conv(&x->d, 4, 5, "assign float64 to int64 local 'x' (a local keeps one type");
  expect_conv(&x->d, 5, 5, "assign float64 to int32 element of View1D 'A' truncates");
  expect_conv(&x->d, 9, 5, "the result of /= is float64, stored to int64 local 'x'");
  /* `i = 0`: the work index is the operator's own copy (PyKokkos accepts it) */
  assert_true(f->index[0]->access & PKI_ACCESS_WRITE);
  expect_diag(&x->d, PKI_SEV_ERROR, 11, 10,
              "Views cannot be copied into locals in kernels; index the View directly");
  assert_cast_of(ok->value, PKI_F32, PKI_E_FLOAT);
  assert_cast_of(up->value, PKI_F64, PKI_E_INT);
}

static void test_acc_rules(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "r", PKI_PATTERN_REDUCE);
  f->acc = pki_new_var(m, "acc", PKI_VAR_ACC, F64, sp(2, 17));
  pki_stmt *ok = s_assign(m, &f->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_var(m, f->acc),
                          e_var(m, f->index[0]), sp(3, 5));
  s_assign(m, &f->body, PKI_S_AUGASSIGN, PKI_OP_SUB, e_var(m, f->acc), e_int(m, 1), sp(4, 5));
  s_assign(m, &f->body, PKI_S_AUGASSIGN, PKI_OP_MUL, e_var(m, f->acc), e_int(m, 2), sp(6, 5));
  pki_expr *t = e_var(m, f->acc);
  t->span = sp(5, 5);
  s_assign(m, &f->body, PKI_S_ASSIGN, 0, t, e_int(m, 0), sp(5, 5));
  assert_int_equal(pki_check(m, &x->d), 2);
  assert_cast_of(ok->value, PKI_F64, PKI_E_VAR);
  /* acc -= x is accepted (a sum joins with +, as PyKokkos code uses it) */
  expect_diag(&x->d, PKI_SEV_ERROR, 6, 5,
              "the accumulator 'acc' of a sum reduction only supports += and -= (got *=)");
  expect_diag(&x->d, PKI_SEV_ERROR, 5, 5,
              "cannot assign to the accumulator 'acc' of a sum reduction; use acc += value");
  assert_int_equal(f->acc->access, PKI_ACCESS_READ | PKI_ACCESS_WRITE);
}

static void test_int_acc_rejects_float(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "r", PKI_PATTERN_REDUCE);
  f->acc = pki_new_var(m, "acc", PKI_VAR_ACC, I64, sp(2, 17));
  s_assign(m, &f->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_var(m, f->acc), e_float(m, 0.5),
           sp(3, 5));
  assert_int_equal(pki_check(m, &x->d), 0); /* C++ converts: a warning */
  expect_conv(&x->d, 3, 5, "the result of += is float64, stored to int64 accumulator 'acc'");
}

static void test_view_index_errors(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *A = add_param(m, f, "A", pki_view(PKI_F64, 2, PKI_LAYOUT_DEFAULT));
  pki_var *s = add_param(m, f, "s", F64);
  pki_expr *ix = e_index1(m, A, e_var(m, f->index[0]));
  ix->span = sp(3, 9);
  s_decl(m, f, local(m, "a", pki_void_type), ix, sp(3, 5));
  pki_expr *nv = e_index1(m, s, e_int(m, 0));
  nv->args[0]->span = sp(4, 9);
  s_decl(m, f, local(m, "b", pki_void_type), nv, sp(4, 5));
  pki_expr *two[2] = {e_float(m, 1.0), e_int(m, 0)};
  two[0]->span = sp(5, 11);
  s_decl(m, f, local(m, "c", pki_void_type), e_index(m, A, 2, two), sp(5, 5));
  assert_int_equal(pki_check(m, &x->d), 3);
  expect_diag(&x->d, PKI_SEV_ERROR, 3, 9,
              "View2D 'A' needs 2 indices, got 1; subviews are not supported yet");
  expect_diag(&x->d, PKI_SEV_ERROR, 4, 9, "indexing a non-View: 's' is float64");
  expect_diag(&x->d, PKI_SEV_ERROR, 5, 11,
              "View index must be an integer, got float64; use int(...)");
}

static void test_range_and_conditions(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *n32 = add_param(m, f, "n", KT(I32));
  pki_stmt *fs = pki_new_stmt(m, PKI_S_FOR, sp(3, 5));
  fs->var = local(m, "j", pki_void_type);
  fs->begin = e_int(m, 0);
  fs->end = e_var(m, n32);
  fs->step = e_float(m, 1.5);
  fs->step->span = sp(3, 27);
  s_push(m, &f->body, fs);
  pki_stmt *w = pki_new_stmt(m, PKI_S_WHILE, sp(4, 5));
  w->cond = e_var(m, n32);
  s_push(m, &f->body, w);
  assert_int_equal(pki_check(m, &x->d), 1);
  expect_diag(&x->d, PKI_SEV_ERROR, 3, 27, "range() needs integers, got float64; use int(...)");
  assert_int_equal(fs->var->type.kind, PKI_I64);
  assert_cast_of(fs->end, PKI_I64, PKI_E_VAR);
  assert_cast_of(w->cond, PKI_BOOL, PKI_E_VAR);
}

/* ------------------------------------------------------------- printf */

static pki_stmt *mk_printf(pki_module *m, pki_block *b, const char *fmt, int n,
                           pki_expr **args) {
  pki_stmt *s = pki_new_stmt(m, PKI_S_PRINTF, sp(6, 5));
  s->nargs = n + 1;
  s->args = pki_alloc(m->arena, sizeof(pki_expr *) * (size_t)(n + 1));
  s->args[0] = e_str(m, fmt);
  s->args[0]->span = sp(6, 15);
  for (int i = 0; i < n; i++)
    s->args[i + 1] = args[i];
  return s_push(m, b, s);
}

static void test_printf_rewrite(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *a = add_param(m, f, "a", KT(F32));
  pki_expr *args[4] = {e_var(m, f->index[0]), e_var(m, a), e_bool(m, 1), e_float(m, 2.0)};
  pki_stmt *s = mk_printf(m, &f->body, "i=%d a=%-5.2f %% %x %ld\n", 4, args);
  assert_int_equal(check_ok(x), 0);
  assert_string_equal(s->args[0]->str, "i=%lld a=%-5.2f %% %llx %lld\n");
  assert_int_equal(s->args[1]->kind, PKI_E_VAR);
  assert_cast_of(s->args[2], PKI_F64, PKI_E_VAR);
  assert_cast_of(s->args[3], PKI_U64, PKI_E_BOOL);
  assert_cast_of(s->args[4], PKI_I64, PKI_E_FLOAT); /* Python's %d truncates */
}

static void test_printf_errors(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_expr *one[1] = {e_var(m, f->index[0])};
  mk_printf(m, &f->body, "%d %d\n", 1, one);
  pki_expr *one2[1] = {e_var(m, f->index[0])};
  pki_stmt *s = mk_printf(m, &f->body, "%s\n", 1, one2);
  s->span = sp(7, 5);
  s->args[0]->span = sp(7, 15);
  assert_int_equal(pki_check(m, &x->d), 2);
  expect_diag(&x->d, PKI_SEV_ERROR, 6, 5, "pk.printf format has 2 conversions but 1 argument");
  expect_diag(&x->d, PKI_SEV_ERROR, 7, 15,
              "pk.printf cannot print strings in kernels (%s); use %d or %f");
}

/* ---------------------------------------------- functions and recursion */

static void test_recursion(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_function(m, "f", I64);
  pki_func *g = mk_function(m, "g", I64);
  pki_func *h = mk_function(m, "h", I64);
  pki_var *n = add_param(m, f, "n", I64);
  add_param(m, g, "n", I64);
  add_param(m, h, "n", I64);
  /* f calls f (direct), g calls h calls g (mutual), k calls f (fine) */
  pki_expr *fa[1] = {e_var(m, n)};
  pki_stmt *r = pki_new_stmt(m, PKI_S_RETURN, sp(11, 5));
  r->value = e_call(m, f, 1, fa, sp(11, 12));
  s_push(m, &f->body, r);
  pki_expr *ga[1] = {e_int(m, 1)};
  r = pki_new_stmt(m, PKI_S_RETURN, sp(13, 5));
  r->value = e_call(m, h, 1, ga, sp(13, 12));
  s_push(m, &g->body, r);
  pki_expr *ha[1] = {e_int(m, 2)};
  r = pki_new_stmt(m, PKI_S_RETURN, sp(15, 5));
  r->value = e_call(m, g, 1, ha, sp(15, 12));
  s_push(m, &h->body, r);
  pki_func *k = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_expr *ka[1] = {e_float(m, 1.0)};
  ka[0]->span = sp(20, 14);
  s_decl(m, k, local(m, "v", pki_void_type), e_call(m, f, 1, ka, sp(20, 12)), sp(20, 5));
  assert_int_equal(pki_check(m, &x->d), 3);
  expect_diag(&x->d, PKI_SEV_ERROR, 11, 12,
              "recursion is not allowed in kernels: 'f' calls itself; rewrite it as a loop");
  expect_diag(&x->d, PKI_SEV_ERROR, 13, 12,
              "recursion is not allowed in kernels: 'g' calls 'h', which calls 'g' again; "
              "rewrite it as a loop");
  expect_diag(&x->d, PKI_SEV_ERROR, 15, 12,
              "recursion is not allowed in kernels: 'h' calls 'g', which calls 'h' again; "
              "rewrite it as a loop");
  expect_conv(&x->d, 20, 14, "pass float64 to int64 parameter 'n' of 'f'");
}

static void test_returns(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_function(m, "f", pki_void_type); /* no annotation */
  pki_stmt *r = pki_new_stmt(m, PKI_S_RETURN, sp(11, 5));
  r->value = e_float(m, 1.0);
  r->value->span = sp(11, 12);
  s_push(m, &f->body, r);
  pki_func *g = mk_function(m, "g", I64);
  r = pki_new_stmt(m, PKI_S_RETURN, sp(13, 5));
  r->value = e_float(m, 1.0);
  r->value->span = sp(13, 12);
  s_push(m, &g->body, r);
  pki_func *h = mk_function(m, "h", F64); /* never returns */
  pki_func *w = mk_function(m, "w", F64); /* returns on one path only */
  pki_stmt *ifs = pki_new_stmt(m, PKI_S_IF, sp(16, 5));
  ifs->cond = e_bool(m, 1);
  r = pki_new_stmt(m, PKI_S_RETURN, sp(17, 9));
  r->value = e_int(m, 1);
  s_push(m, &ifs->body, r);
  s_push(m, &w->body, ifs);
  pki_func *k = mk_workunit(m, "k", PKI_PATTERN_FOR);
  r = pki_new_stmt(m, PKI_S_RETURN, sp(20, 5));
  r->value = e_int(m, 1);
  r->value->span = sp(20, 12);
  s_push(m, &k->body, r);
  assert_int_equal(pki_check(m, &x->d), 2);
  expect_diag(&x->d, PKI_SEV_ERROR, 11, 12,
              "device function 'f' returns a value but has no return type; annotate it: "
              "def f(...) -> float:");
  expect_conv(&x->d, 13, 12, "return float64 from 'g' (declared -> int64)");
  expect_diag(&x->d, PKI_SEV_WARNING, 10, 5,
              "device function 'h' is declared -> float64 but never returns a value; it "
              "returns 0");
  expect_diag(&x->d, PKI_SEV_ERROR, 20, 12,
              "a workunit cannot return a value; write results into a View or use "
              "pk.parallel_reduce with an accumulator");
  /* both h and w get a final `return 0.0` so C++ never falls off the end */
  assert_int_equal(h->body.n, 1);
  assert_int_equal(w->body.n, 2);
  assert_cast_of(w->body.stmts[1]->value, PKI_F64, PKI_E_INT);
  assert_cast_of(ifs->body.stmts[0]->value, PKI_F64, PKI_E_INT);
}

static void test_void_call_in_expression(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_function(m, "f", pki_void_type);
  pki_func *k = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_stmt *es = pki_new_stmt(m, PKI_S_EXPR, sp(3, 5));
  es->value = e_call(m, f, 0, NULL, sp(3, 5));
  s_push(m, &k->body, es); /* fine as a statement */
  s_decl(m, k, local(m, "v", pki_void_type), e_call(m, f, 0, NULL, sp(4, 9)), sp(4, 5));
  pki_stmt *junk = pki_new_stmt(m, PKI_S_EXPR, sp(5, 5));
  junk->value = e_int(m, 3);
  junk->value->span = sp(5, 5);
  s_push(m, &k->body, junk);
  assert_int_equal(pki_check(m, &x->d), 2);
  expect_diag(&x->d, PKI_SEV_ERROR, 4, 9,
              "'f' returns no value, so it cannot be used in an expression; annotate its "
              "return type (-> float) and return a value");
  expect_diag(&x->d, PKI_SEV_ERROR, 5, 5,
              "this expression has no effect; only calls can be used as statements");
}

/* ------------------------------------------------------------ access */

static void test_access_modes(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_type v1 = pki_view(PKI_F64, 1, PKI_LAYOUT_DEFAULT);
  /* @pk.function def fill(V: View1D[float64], j: int): V[j] = 0.0 */
  pki_func *fill = mk_function(m, "fill", pki_void_type);
  pki_var *V = add_param(m, fill, "V", v1);
  pki_var *j = add_param(m, fill, "j", I64);
  s_assign(m, &fill->body, PKI_S_ASSIGN, 0, e_index1(m, V, e_var(m, j)), e_float(m, 0.0),
           sp(11, 5));
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *A = add_param(m, f, "A", v1), *B = add_param(m, f, "B", v1);
  pki_var *C = add_param(m, f, "C", v1), *D = add_param(m, f, "D", v1);
  pki_var *E = add_param(m, f, "E", v1), *s = add_param(m, f, "s", F64);
  pki_var *unused = add_param(m, f, "unused", F64);
  pki_var *i = f->index[0];
  /* B[i] = A[i] * s; C[i] += 1.0; fill(D, i); n = E.extent(0) */
  s_assign(m, &f->body, PKI_S_ASSIGN, 0, e_index1(m, B, e_var(m, i)),
           BIN(m, PKI_OP_MUL, e_index1(m, A, e_var(m, i)), e_var(m, s)), sp(3, 5));
  s_assign(m, &f->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_index1(m, C, e_var(m, i)),
           e_float(m, 1.0), sp(4, 5));
  pki_expr *ca[2] = {e_var(m, D), e_var(m, i)};
  pki_stmt *es = pki_new_stmt(m, PKI_S_EXPR, sp(5, 5));
  es->value = e_call(m, fill, 2, ca, sp(5, 5));
  s_push(m, &f->body, es);
  pki_expr *ext = pki_new_expr_n(m, PKI_E_EXTENT, sp(6, 9), 1);
  ext->args[0] = e_var(m, E);
  pki_var *n = local(m, "n", pki_void_type);
  s_decl(m, f, n, ext, sp(6, 5));
  assert_int_equal(check_ok(x), 0);
  assert_int_equal(A->access, PKI_ACCESS_READ);
  assert_int_equal(B->access, PKI_ACCESS_WRITE);
  assert_int_equal(C->access, PKI_ACCESS_READ | PKI_ACCESS_WRITE);
  assert_int_equal(D->access, PKI_ACCESS_WRITE);
  assert_int_equal(E->access, 0);
  assert_int_equal(s->access, PKI_ACCESS_READ);
  assert_int_equal(unused->access, 0);
  assert_int_equal(V->access, PKI_ACCESS_WRITE);
  assert_int_equal(n->type.kind, PKI_I64);
}

/* ----------------------------------------------------------- robustness */

static void test_partial_ir_no_crash(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  s_decl(m, f, local(m, "a", pki_void_type), NULL, sp(3, 5));
  pki_stmt *d2 = pki_new_stmt(m, PKI_S_DECL, sp(4, 5));
  s_push(m, &f->body, d2); /* no var, no value */
  s_decl(m, f, local(m, "b", pki_void_type), pki_new_expr(m, PKI_E_BINARY, sp(5, 9)),
         sp(5, 5));
  s_assign(m, &f->body, PKI_S_ASSIGN, 0, NULL, NULL, sp(6, 5));
  s_assign(m, &f->body, PKI_S_AUGASSIGN, PKI_OP_ADD, pki_new_expr(m, PKI_E_INDEX, sp(7, 5)),
           NULL, sp(7, 5));
  s_push(m, &f->body, pki_new_stmt(m, PKI_S_IF, sp(8, 5)));
  s_push(m, &f->body, pki_new_stmt(m, PKI_S_FOR, sp(9, 5)));
  s_push(m, &f->body, pki_new_stmt(m, PKI_S_PRINTF, sp(10, 5)));
  s_push(m, &f->body, pki_new_stmt(m, PKI_S_RETURN, sp(11, 5)));
  s_push(m, &f->body, pki_new_stmt(m, PKI_S_EXPR, sp(12, 5)));
  pki_expr *call = pki_new_expr_n(m, PKI_E_CALL, sp(13, 9), 2); /* no func, NULL args */
  s_decl(m, f, local(m, "c", pki_void_type), call, sp(13, 5));
  pki_expr *bi = pki_new_expr(m, PKI_E_BUILTIN, sp(14, 9));
  bi->builtin = PKI_BUILTIN_MAX;
  s_decl(m, f, local(m, "d", pki_void_type), bi, sp(14, 5));
  pki_check(m, &x->d);
  expect_diag(&x->d, PKI_SEV_ERROR, 3, 5,
              "cannot infer the type of 'a'; annotate it, e.g. a: float = 0.0");
  expect_diag(&x->d, PKI_SEV_ERROR, 10, 5, "pk.printf needs a string literal as its format");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_mixed_arith, setup, teardown),
      cmocka_unit_test_setup_teardown(test_true_division, setup, teardown),
      cmocka_unit_test_setup_teardown(test_int32_view_plus_literal, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unsigned_and_bitwise, setup, teardown),
      cmocka_unit_test_setup_teardown(test_compare_cond_builtins, setup, teardown),
      cmocka_unit_test_setup_teardown(test_assignment_conflicts, setup, teardown),
      cmocka_unit_test_setup_teardown(test_acc_rules, setup, teardown),
      cmocka_unit_test_setup_teardown(test_int_acc_rejects_float, setup, teardown),
      cmocka_unit_test_setup_teardown(test_view_index_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_range_and_conditions, setup, teardown),
      cmocka_unit_test_setup_teardown(test_printf_rewrite, setup, teardown),
      cmocka_unit_test_setup_teardown(test_printf_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_recursion, setup, teardown),
      cmocka_unit_test_setup_teardown(test_returns, setup, teardown),
      cmocka_unit_test_setup_teardown(test_void_call_in_expression, setup, teardown),
      cmocka_unit_test_setup_teardown(test_access_modes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_partial_ir_no_crash, setup, teardown),
  };
  return cmocka_run_group_tests_name("check", tests, NULL, NULL);
}
