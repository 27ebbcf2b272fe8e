/*
 * test_check_dialect.c - unit tests of pki_check/pki_print on the dialect
 * constructs of issue 3: team intrinsics and scratch, atomics, random,
 * subviews, timers, classtypes, lists, assert, nested patterns, pk.single,
 * reducers, MDRange workunits and workload dispatches. IR built by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check_test_util.h"

#define A1(e) ((pki_expr *[]){e})
#define A2(a, b) ((pki_expr *[]){a, b})
#define A3(a, b, c) ((pki_expr *[]){a, b, c})
#define A4(a, b, c, d) ((pki_expr *[]){a, b, c, d})

static pki_type v1d(pki_kind k) { return pki_view(k, 1, PKI_LAYOUT_DEFAULT); }

/* ----------------------------------------------------- team intrinsics */

static void test_team_intrinsics(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_team_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *mv = f->index[0];
  pki_var *r = local(m, "r", pki_void_type);
  s_decl(m, f, r, e_intr(m, PKI_INTRINSIC_LEAGUE_RANK, 1, A1(e_var(m, mv)), sp(3, 9)), sp(3, 5));
  s_expr(m, &f->body, e_intr(m, PKI_INTRINSIC_TEAM_BARRIER, 1, A1(e_var(m, mv)), sp(4, 5)),
         sp(4, 5));
  /* scratch: s: ScratchView1D[float64] = pk.ScratchView1D(m.team_scratch(0), n32) */
  pki_var *n32 = add_param(m, f, "n", KT(I32));
  pki_var *sv = local(m, "s", v1d(PKI_F64));
  pki_expr *src = e_intr(m, PKI_INTRINSIC_TEAM_SCRATCH, 2, A2(e_var(m, mv), e_int(m, 0)), sp(5, 30));
  pki_stmt *d = s_decl(m, f, sv, e_intr(m, PKI_INTRINSIC_SCRATCH_VIEW, 2,
                                         A2(src, e_var(m, n32)), sp(5, 9)), sp(5, 5));
  s_assign(m, &f->body, PKI_S_ASSIGN, 0, e_index1(m, sv, e_int(m, 0)), e_int(m, 1), sp(6, 5));
  assert_int_equal(check_ok(x), 0);
  assert_int_equal(r->type.kind, PKI_I64);
  assert_int_equal(d->value->type.kind, PKI_VIEW);
  assert_int_equal(d->value->type.space, PKI_SPACE_SCRATCH);
  assert_cast_of(d->value->args[1], PKI_I64, PKI_E_VAR);
}

static void test_team_intrinsic_errors(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR); /* a range workunit */
  s_decl(m, f, local(m, "r", pki_void_type),
         e_intr(m, PKI_INTRINSIC_TEAM_RANK, 1, A1(e_var(m, f->index[0])), sp(3, 9)), sp(3, 5));
  pki_func *t = mk_team_workunit(m, "t", PKI_PATTERN_FOR);
  pki_expr *lv = e_int(m, 2);
  lv->span = sp(4, 40);
  pki_expr *src = e_intr(m, PKI_INTRINSIC_THREAD_SCRATCH, 2, A2(e_var(m, t->index[0]), lv), sp(4, 30));
  s_decl(m, t, local(m, "s", v1d(PKI_F64)),
         e_intr(m, PKI_INTRINSIC_SCRATCH_VIEW, 2, A2(src, e_int(m, 4)), sp(4, 9)), sp(4, 5));
  s_decl(m, t, local(m, "b", pki_void_type),
         e_intr(m, PKI_INTRINSIC_TEAM_BARRIER, 1, A1(e_var(m, t->index[0])), sp(5, 9)), sp(5, 5));
  pki_func *md = mk_workunit(m, "md", PKI_PATTERN_FOR);
  md->policy = PKI_POLICY_MDRANGE; /* one index only */
  assert_int_equal(pki_check(m, &x->d), 4);
  expect_err(&x->d, 3, 9, "m.team_rank can only be used inside a TeamPolicy workunit "
                          "(def k(m: pk.TeamMember, ...))");
  expect_err(&x->d, 4, 40, "the scratch level must be the literal 0 or 1");
  expect_err(&x->d, 5, 9, "m.team_barrier returns no value, so it cannot be used in an expression");
  expect_err(&x->d, 2, 5, "MDRangePolicy workunit 'md' has 1 index parameter; it needs 2 to 6 "
                          "(def md(i: int, j: int, ...))");
}

/* ---------------------------------------------------------------- atomics */

static void test_atomics(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *A = add_param(m, f, "A", pki_view(PKI_I32, 2, PKI_LAYOUT_DEFAULT));
  pki_var *B = add_param(m, f, "B", v1d(PKI_F64));
  pki_var *i = f->index[0];
  pki_var *old = local(m, "old", pki_void_type);
  pki_stmt *d = s_decl(m, f, old, e_intr(m, PKI_INTRINSIC_ATOMIC_FETCH_ADD, 4,
                                         A4(e_var(m, A), e_var(m, i), e_int(m, 0), e_int(m, 1)),
                                         sp(3, 11)), sp(3, 5));
  pki_stmt *s = s_expr(m, &f->body, e_intr(m, PKI_INTRINSIC_ATOMIC_ADD, 3,
                                           A3(e_var(m, B), e_var(m, i), e_int(m, 2)), sp(4, 5)),
                       sp(4, 5));
  pki_expr *cas_args[4] = {e_var(m, B), e_int(m, 0), e_float(m, 1.0), e_float(m, 2.0)};
  pki_var *c = local(m, "c", pki_void_type);
  s_decl(m, f, c, e_intr(m, PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE, 4, cas_args, sp(5, 9)), sp(5, 5));
  s_expr(m, &f->body, e_intr(m, PKI_INTRINSIC_ATOMIC_INCREMENT, 3,
                             A3(e_var(m, A), e_int(m, 0), e_int(m, 1)), sp(6, 5)), sp(6, 5));
  assert_int_equal(check_ok(x), 0);
  assert_cast_of(d->value, PKI_I64, PKI_E_INTRINSIC); /* int32 old value into an int64 local */
  assert_int_equal(d->value->args[0]->type.kind, PKI_I32);
  assert_int_equal(old->type.kind, PKI_I64);
  assert_cast_of(d->value->args[0]->args[3], PKI_I32, PKI_E_INT);
  assert_cast_of(s->value->args[2], PKI_F64, PKI_E_INT);
  assert_int_equal(s->value->type.kind, PKI_VOID);
  assert_int_equal(c->type.kind, PKI_F64);
  assert_int_equal(A->access, PKI_ACCESS_READ | PKI_ACCESS_WRITE);
}

static void test_atomic_errors(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *A = add_param(m, f, "A", pki_view(PKI_I32, 2, PKI_LAYOUT_DEFAULT));
  pki_var *B = add_param(m, f, "B", v1d(PKI_F64));
  pki_var *s = add_param(m, f, "s", F64);
  s_expr(m, &f->body, e_intr(m, PKI_INTRINSIC_ATOMIC_ADD, 3,
                             A3(e_var(m, A), e_int(m, 0), e_int(m, 1)), sp(3, 5)), sp(3, 5));
  s_decl(m, f, local(m, "a", pki_void_type),
         e_intr(m, PKI_INTRINSIC_ATOMIC_FETCH_AND, 3, A3(e_var(m, B), e_int(m, 0), e_int(m, 1)),
                sp(4, 9)), sp(4, 5));
  pki_expr *sv = e_var(m, s);
  sv->span = sp(5, 19);
  s_expr(m, &f->body, e_intr(m, PKI_INTRINSIC_ATOMIC_SUB, 3, A3(sv, e_int(m, 0), e_int(m, 1)),
                             sp(5, 5)), sp(5, 5));
  pki_expr *fv = e_float(m, 0.5);
  fv->span = sp(6, 30);
  s_expr(m, &f->body, e_intr(m, PKI_INTRINSIC_ATOMIC_ADD, 4,
                             A4(e_var(m, A), e_int(m, 0), e_int(m, 0), fv), sp(6, 5)), sp(6, 5));
  assert_int_equal(pki_check(m, &x->d), 3);
  expect_err(&x->d, 3, 5, "pk.atomic_add on View2D 'A' needs 2 indices, got 1");
  expect_err(&x->d, 4, 9, "pk.atomic_fetch_and needs an integer View; 'B' holds float64");
  expect_err(&x->d, 5, 19, "pk.atomic_sub needs a View, but 's' is float64");
  expect_conv(&x->d, 6, 30, "atomically apply float64 to int32 element of View2D 'A'");
}

/* ----------------------------------------------------------------- random */

static void test_random(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *pool = add_param(m, f, "pool", (pki_type){.kind = PKI_POOL, .rank = 64});
  pki_var *st = local(m, "state", pki_void_type);
  s_decl(m, f, st, e_intr(m, PKI_INTRINSIC_POOL_GET_STATE, 1, A1(e_var(m, pool)), sp(3, 13)),
         sp(3, 5));
  pki_var *d = local(m, "d", pki_void_type);
  pki_stmt *ds = s_decl(m, f, d, e_intr(m, PKI_INTRINSIC_RAND_DRAND, 3,
                                        A3(e_var(m, st), e_int(m, 1), e_int(m, 5)), sp(4, 9)), sp(4, 5));
  pki_var *u = local(m, "u", pki_void_type);
  pki_stmt *us = s_decl(m, f, u, e_intr(m, PKI_INTRINSIC_RAND_URAND, 1, A1(e_var(m, st)), sp(5, 9)),
                        sp(5, 5));
  pki_var *fr = local(m, "fr", pki_void_type);
  s_decl(m, f, fr, e_intr(m, PKI_INTRINSIC_RAND_FRAND, 1, A1(e_var(m, st)), sp(6, 9)), sp(6, 5));
  s_expr(m, &f->body, e_intr(m, PKI_INTRINSIC_POOL_FREE_STATE, 2,
                             A2(e_var(m, pool), e_var(m, st)), sp(7, 5)), sp(7, 5));
  pki_expr *pv = e_var(m, pool);
  pv->span = sp(8, 9);
  s_decl(m, f, local(m, "bad", pki_void_type),
         e_intr(m, PKI_INTRINSIC_RAND_NORMAL, 1, A1(pv), sp(8, 9)), sp(8, 5));
  assert_int_equal(pki_check(m, &x->d), 1);
  expect_err(&x->d, 8, 9, "s.normal needs a random state (pool.get_state()), but 'pool' is "
                          "Random_XorShift64_Pool");
  assert_int_equal(st->type.kind, PKI_RAND_STATE);
  assert_int_equal(st->type.rank, 64);
  assert_int_equal(d->type.kind, PKI_F64);
  assert_cast_of(ds->value->args[1], PKI_F64, PKI_E_INT);
  assert_cast_of(us->value, PKI_I64, PKI_E_INTRINSIC);
  assert_int_equal(us->value->args[0]->type.kind, PKI_U32);
  assert_int_equal(u->type.kind, PKI_I64); /* Python ints are int64 locals */
  assert_int_equal(fr->type.kind, PKI_F32);
  assert_int_equal(pool->access, PKI_ACCESS_READ);
}

/* ---------------------------------------------------------------- subview */

static pki_expr *slice_all(pki_module *m) {
  pki_expr *s = pki_new_expr_n(m, PKI_E_SLICE, sp(1, 1), 2);
  s->ival = 1;
  return s;
}

static void test_subview(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *A = add_param(m, f, "A", pki_view(PKI_F64, 3, PKI_LAYOUT_DEFAULT));
  pki_var *B = add_param(m, f, "B", pki_view(PKI_F64, 2, PKI_LAYOUT_DEFAULT));
  pki_var *i = f->index[0];
  pki_expr *rng = pki_new_expr_n(m, PKI_E_SLICE, sp(1, 1), 2);
  rng->args[0] = e_int(m, 1);
  rng->args[1] = e_var(m, i);
  pki_var *row = local(m, "row", pki_void_type);
  s_decl(m, f, row, e_intr(m, PKI_INTRINSIC_SUBVIEW, 4,
                           A4(e_var(m, A), e_var(m, i), rng, slice_all(m)), sp(3, 11)), sp(3, 5));
  s_assign(m, &f->body, PKI_S_ASSIGN, 0, e_index(m, row, 2, A2(e_int(m, 0), e_int(m, 0))),
           e_float(m, 1.0), sp(4, 5));
  s_decl(m, f, local(m, "bad", pki_void_type),
         e_intr(m, PKI_INTRINSIC_SUBVIEW, 3, A3(e_var(m, B), e_int(m, 0), e_int(m, 1)), sp(5, 11)),
         sp(5, 5));
  assert_int_equal(check_ok(x), 1);
  expect_err(&x->d, 5, 11, "this subview keeps no dimension; index the View directly: B[...]");
  assert_int_equal(row->type.kind, PKI_VIEW);
  assert_int_equal(row->type.rank, 2);
  assert_int_equal(row->type.layout, PKI_LAYOUT_STRIDE);
  assert_int_equal(A->access, PKI_ACCESS_WRITE); /* through the subview local */
  assert_int_equal(rng->args[1]->kind, PKI_E_VAR);
}

/* -------------------------------------------------------- host main, timers */

static pki_entity *mk_workload(pki_module *m, pki_func **main_out) {
  pki_entity *e = pki_new_entity(m, PKI_ENT_WORKLOAD, "W", sp(1, 7));
  pki_module_add_entity(m, e);
  pki_func *mainf = pki_new_func(m, "run", sp(30, 9));
  mainf->is_main = true;
  pki_entity_add_func(m, e, mainf);
  *main_out = mainf;
  return e;
}

static void test_main_timer(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *mainf;
  pki_entity *e = mk_workload(m, &mainf);
  pki_var *el = pki_new_var(m, "elapsed", PKI_VAR_MEMBER, F64, sp(3, 9));
  pki_entity_add_member(m, e, el);
  pki_var *t = local(m, "timer", pki_void_type);
  s_decl(m, mainf, t, e_intr(m, PKI_INTRINSIC_TIMER_NEW, 0, NULL, sp(31, 17)), sp(31, 9));
  s_expr(m, &mainf->body, e_intr(m, PKI_INTRINSIC_FENCE, 0, NULL, sp(32, 9)), sp(32, 9));
  pki_stmt *a = s_assign(m, &mainf->body, PKI_S_ASSIGN, 0, e_var(m, el),
                         e_intr(m, PKI_INTRINSIC_TIMER_SECONDS, 1, A1(e_var(m, t)), sp(33, 24)),
                         sp(33, 9));
  s_expr(m, &mainf->body, e_intr(m, PKI_INTRINSIC_TIMER_RESET, 1, A1(e_var(m, t)), sp(34, 9)),
         sp(34, 9));
  assert_int_equal(check_ok(x), 0);
  assert_int_equal(t->type.kind, PKI_TIMER);
  assert_int_equal(a->value->type.kind, PKI_F64);
  assert_int_equal(el->access, PKI_ACCESS_WRITE);
}

static void test_main_errors(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *mainf;
  pki_entity *w = mk_workload(m, &mainf);
  pki_func *dev = mk_function(m, "dev", F64); /* dev(a: pk.View1D[pk.double]) -> float */
  pki_var *va = pki_new_var(m, "a", PKI_VAR_PARAM, pki_view(PKI_F64, 1, PKI_LAYOUT_DEFAULT),
                            sp(10, 9));
  pki_func_add_param(m, dev, va);
  pki_stmt *r = pki_new_stmt(m, PKI_S_RETURN, sp(11, 5));
  r->value = e_float(m, 1.0);
  s_push(m, &dev->body, r);
  pki_var *mv = pki_new_var(m, "mv", PKI_VAR_MEMBER, pki_view(PKI_F64, 1, PKI_LAYOUT_DEFAULT),
                            sp(2, 9));
  pki_entity_add_member(m, w, mv);
  s_decl(m, mainf, local(m, "v", pki_void_type), e_call(m, dev, 1, A1(e_var(m, mv)), sp(31, 13)),
         sp(31, 9));
  pki_func *num = mk_function(m, "num", F64); /* numbers only: main may call it */
  pki_stmt *r2 = pki_new_stmt(m, PKI_S_RETURN, sp(13, 5));
  r2->value = e_float(m, 2.0);
  s_push(m, &num->body, r2);
  s_decl(m, mainf, local(m, "w", pki_void_type), e_call(m, num, 0, NULL, sp(33, 13)), sp(33, 9));
  pki_var *pool = pki_new_var(m, "pool", PKI_VAR_LOCAL, (pki_type){.kind = PKI_POOL, .rank = 64},
                              sp(1, 1));
  s_decl(m, mainf, local(m, "st", pki_void_type),
         e_intr(m, PKI_INTRINSIC_POOL_GET_STATE, 1, A1(e_var(m, pool)), sp(32, 14)), sp(32, 9));
  pki_func *k = mk_workunit(m, "k", PKI_PATTERN_FOR);
  s_decl(m, k, local(m, "t", pki_void_type), e_intr(m, PKI_INTRINSIC_TIMER_NEW, 0, NULL, sp(4, 9)),
         sp(4, 5));
  s_expr(m, &k->body, e_intr(m, PKI_INTRINSIC_FENCE, 0, NULL, sp(5, 5)), sp(5, 5));
  assert_int_equal(pki_check(m, &x->d), 4);
  expect_err(&x->d, 31, 13, "'dev' takes a View (or a pool, a team member), whose memory may be "
                            "on the device; it cannot be called from @pk.main (host code); call "
                            "it from a workunit");
  expect_err(&x->d, 32, 14, "p.get_state can only be used inside a kernel, not in @pk.main "
                            "(host code)");
  expect_err(&x->d, 4, 9, "pk.Timer can only be used in @pk.main (host code), not inside a kernel");
  expect_err(&x->d, 5, 5, "pk.fence can only be used in @pk.main (host code), not inside a kernel");
}

/* ------------------------------------------------------------- classtypes */

/* @pk.classtype Vec3 with fields x, y: float; __init__(x: float, y: float);
 * def dot(self, o: Vec3) -> float: return self.x * o.x + self.y * o.y */
static pki_entity *mk_vec(pki_module *m, pki_func **ctor, pki_func **dot) {
  pki_entity *c = pki_new_entity(m, PKI_ENT_CLASSTYPE, "Vec", sp(1, 7));
  pki_module_add_entity(m, c);
  pki_var *fx_ = pki_new_var(m, "x", PKI_VAR_MEMBER, F64, sp(3, 14));
  pki_var *fy = pki_new_var(m, "y", PKI_VAR_MEMBER, F64, sp(4, 14));
  pki_entity_add_member(m, c, fx_);
  pki_entity_add_member(m, c, fy);
  pki_func *ct = pki_new_func(m, "__init__", sp(2, 9));
  ct->is_ctor = ct->is_method = true;
  pki_entity_add_func(m, c, ct);
  pki_var *px = add_param(m, ct, "x", F64);
  add_param(m, ct, "y", F64);
  /* self.x = x (implicit receiver: field with no args[0]) */
  pki_expr *fld = pki_new_expr_n(m, PKI_E_FIELD, sp(3, 9), 0);
  fld->str = "x";
  s_assign(m, &ct->body, PKI_S_ASSIGN, 0, fld, e_var(m, px), sp(3, 9));
  pki_func *d = pki_new_func(m, "dot", sp(6, 9));
  d->is_method = true;
  d->ret = F64;
  d->ret_annotated = true;
  pki_entity_add_func(m, c, d);
  pki_var *self = add_param(m, d, "self", pki_class_type(c)); /* explicit self */
  pki_var *o = add_param(m, d, "o", pki_class_type(c));
  pki_expr *sx = pki_new_expr_n(m, PKI_E_FIELD, sp(7, 16), 1);
  sx->args[0] = e_var(m, self);
  sx->str = "x";
  pki_expr *ox = pki_new_expr_n(m, PKI_E_FIELD, sp(7, 25), 1);
  ox->args[0] = e_var(m, o);
  ox->str = "x";
  pki_stmt *r = pki_new_stmt(m, PKI_S_RETURN, sp(7, 9));
  r->value = BIN(m, PKI_OP_MUL, sx, ox);
  s_push(m, &d->body, r);
  *ctor = ct;
  *dot = d;
  return c;
}

static void test_classtype(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *ct, *dot;
  pki_entity *c = mk_vec(m, &ct, &dot);
  pki_func *k = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_expr *cons = pki_new_expr_n(m, PKI_E_CONSTRUCT, sp(3, 9), 2);
  cons->type = pki_class_type(c);
  cons->args[0] = e_int(m, 1);
  cons->args[1] = e_float(m, 2.0);
  pki_var *v = local(m, "v", pki_void_type);
  s_decl(m, k, v, cons, sp(3, 5));
  pki_expr *vy = pki_new_expr_n(m, PKI_E_FIELD, sp(4, 5), 1);
  vy->args[0] = e_var(m, v);
  vy->str = "y";
  pki_stmt *as = s_assign(m, &k->body, PKI_S_ASSIGN, 0, vy, e_var(m, k->index[0]), sp(4, 5));
  pki_var *dv = local(m, "d", pki_void_type);
  s_decl(m, k, dv, e_call(m, dot, 2, A2(e_var(m, v), e_var(m, v)), sp(5, 9)), sp(5, 5));
  pki_expr *bad = pki_new_expr_n(m, PKI_E_FIELD, sp(6, 9), 1);
  bad->args[0] = e_var(m, v);
  bad->str = "z";
  s_decl(m, k, local(m, "z", pki_void_type), bad, sp(6, 5));
  pki_expr *c1 = pki_new_expr_n(m, PKI_E_CONSTRUCT, sp(7, 9), 1);
  c1->type = pki_class_type(c);
  c1->args[0] = e_int(m, 1);
  s_decl(m, k, local(m, "w", pki_void_type), c1, sp(7, 5));
  assert_int_equal(pki_check(m, &x->d), 2);
  expect_err(&x->d, 6, 9, "classtype 'Vec' has no field 'z'");
  expect_err(&x->d, 7, 9, "Vec(...) takes 2 arguments, got 1");
  assert_int_equal(v->type.kind, PKI_CLASS);
  assert_ptr_equal(v->type.cls, c);
  assert_cast_of(cons->args[0], PKI_F64, PKI_E_INT);
  assert_cast_of(as->value, PKI_F64, PKI_E_VAR);
  assert_int_equal(dv->type.kind, PKI_F64);
  assert_int_equal(ct->body.stmts[0]->target->type.kind, PKI_F64);
}

/* ----------------------------------------------------------------- lists */

static void test_lists(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_var *xs = local(m, "xs", pki_array_type(PKI_F64, 3));
  pki_expr *lit = e_list(m, 3, A3(e_int(m, 0), e_float(m, 1.0), e_int(m, 2)));
  s_decl(m, f, xs, lit, sp(3, 5));
  pki_var *ys = local(m, "ys", pki_void_type);
  s_decl(m, f, ys, e_list(m, 2, A2(e_int(m, 1), e_int(m, 2))), sp(4, 5));
  pki_stmt *as = s_assign(m, &f->body, PKI_S_ASSIGN, 0, e_index1(m, xs, e_var(m, f->index[0])),
                          e_int(m, 3), sp(5, 5));
  pki_var *r = local(m, "r", pki_void_type);
  s_decl(m, f, r, e_index1(m, ys, e_int(m, 1)), sp(6, 5));
  pki_expr *two = e_index(m, xs, 2, A2(e_int(m, 0), e_int(m, 1)));
  two->span = sp(7, 9);
  s_decl(m, f, local(m, "q", pki_void_type), two, sp(7, 5));
  pki_expr *bl = e_list(m, 2, A2(e_float(m, 1.0), e_float(m, 2.0)));
  bl->span = sp(8, 27);
  s_decl(m, f, local(m, "zs", pki_array_type(PKI_F64, 3)), bl, sp(8, 5));
  assert_int_equal(pki_check(m, &x->d), 2);
  expect_err(&x->d, 7, 9, "List 'xs' takes one index, got 2");
  expect_err(&x->d, 8, 27, "the List has 2 elements, the annotation says 3");
  assert_int_equal(lit->type.kind, PKI_ARRAY);
  assert_cast_of(lit->args[0], PKI_F64, PKI_E_INT);
  assert_int_equal(ys->type.kind, PKI_ARRAY);
  assert_int_equal(ys->type.elem, PKI_I64);
  assert_int_equal(ys->type.length, 2);
  assert_cast_of(as->value, PKI_F64, PKI_E_INT);
  assert_int_equal(r->type.kind, PKI_I64);
}

/* ---------------------------------------------------------------- assert */

static void test_assert(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *f = mk_workunit(m, "k", PKI_PATTERN_FOR);
  pki_stmt *a = pki_new_stmt(m, PKI_S_ASSERT, sp(3, 5));
  a->cond = e_var(m, f->index[0]);
  a->nargs = 1;
  a->args = pki_alloc(m->arena, sizeof(pki_expr *));
  a->args[0] = e_str(m, "i must be nonzero");
  s_push(m, &f->body, a);
  pki_stmt *b = pki_new_stmt(m, PKI_S_ASSERT, sp(4, 5));
  b->cond = e_bool(m, 1);
  b->nargs = 1;
  b->args = pki_alloc(m->arena, sizeof(pki_expr *));
  b->args[0] = e_int(m, 3);
  b->args[0]->span = sp(4, 18);
  s_push(m, &f->body, b);
  assert_int_equal(pki_check(m, &x->d), 1);
  expect_err(&x->d, 4, 18, "an assert message in a kernel must be a string literal");
  assert_cast_of(a->cond, PKI_BOOL, PKI_E_VAR);
}

/* -------------------------------------------------- nested patterns, single */

/* team reduce k(m, acc, A, n): x = parallel_reduce(TeamThreadRange(m, n), inner);
 * single(PerTeam(m), once) with once: acc += x */
static pki_func *mk_team_nested(pki_module *m, pki_var **xout, pki_func **inner_out) {
  pki_func *f = mk_team_workunit(m, "k", PKI_PATTERN_REDUCE);
  f->acc = pki_new_var(m, "acc", PKI_VAR_ACC, F64, sp(2, 30));
  pki_var *A = add_param(m, f, "A", v1d(PKI_F64));
  pki_var *n = add_param(m, f, "n", KT(I32));
  pki_var *mv = f->index[0];
  pki_var *xv = local(m, "x", pki_void_type);
  pki_func_add_local(m, f, xv);
  static const char *const j[] = {"j"};
  pki_func *inner = mk_closure(m, f, "inner", 1, j, "a", F64);
  s_assign(m, &inner->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_var(m, inner->acc),
           e_index1(m, A, e_var(m, inner->index[0])), sp(21, 13));
  s_par(m, &f->body, PKI_S_NESTED, PKI_PATTERN_REDUCE, PKI_RANGE_TEAM_THREAD, inner, 2,
        A2(e_var(m, mv), e_var(m, n)), e_var(m, xv), sp(22, 9));
  pki_func *once = mk_closure(m, f, "once", 0, NULL, NULL, pki_void_type);
  s_assign(m, &once->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_var(m, f->acc), e_var(m, xv),
           sp(24, 13));
  s_par(m, &f->body, PKI_S_SINGLE, 0, PKI_RANGE_PER_TEAM, once, 1, A1(e_var(m, mv)), NULL,
        sp(25, 9));
  *xout = xv;
  *inner_out = inner;
  return f;
}

static void test_nested_single(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_var *xv;
  pki_func *inner;
  pki_func *f = mk_team_nested(m, &xv, &inner);
  pki_stmt *ns = f->body.stmts[0];
  /* a nested reduce without acc, and a nested range in a range workunit */
  pki_func *k2 = mk_team_workunit(m, "k2", PKI_PATTERN_FOR);
  static const char *const j[] = {"j"};
  pki_func *noacc = mk_closure(m, k2, "noacc", 1, j, NULL, pki_void_type);
  pki_var *y = local(m, "y", I64);
  s_decl(m, k2, y, e_int(m, 0), sp(3, 5));
  s_par(m, &k2->body, PKI_S_NESTED, PKI_PATTERN_REDUCE, PKI_RANGE_TEAM_THREAD, noacc, 2,
        A2(e_var(m, k2->index[0]), e_int(m, 4)), e_var(m, y), sp(4, 5));
  pki_func *fa = mk_closure(m, k2, "fa", 1, j, "a", F64);
  pki_expr *ty = e_var(m, y);
  ty->span = sp(5, 5);
  s_par(m, &k2->body, PKI_S_NESTED, PKI_PATTERN_REDUCE, PKI_RANGE_TEAM_THREAD, fa, 2,
        A2(e_var(m, k2->index[0]), e_int(m, 4)), ty, sp(5, 9));
  pki_func *r = mk_workunit(m, "r", PKI_PATTERN_FOR);
  pki_func *g = mk_closure(m, r, "g", 1, j, NULL, pki_void_type);
  s_par(m, &r->body, PKI_S_NESTED, PKI_PATTERN_FOR, PKI_RANGE_TEAM_THREAD, g, 2,
        A2(e_var(m, r->index[0]), e_int(m, 4)), NULL, sp(6, 5));
  assert_int_equal(pki_check(m, &x->d), 2);
  expect_err(&x->d, 20, 9, "the function passed to pk.parallel_reduce needs an accumulator "
                           "parameter: def noacc(j: int, acc: pk.Acc[pk.double])");
  expect_conv(&x->d, 5, 5, "the float64 result of pk.parallel_reduce is stored to int64 "
                           "local 'y'");
  expect_err(&x->d, 6, 5, "pk.TeamThreadRange can only be used inside a TeamPolicy workunit "
                          "(def k(m: pk.TeamMember, ...))");
    assert_int_equal(inner->index[0]->type.kind, PKI_I64);
  assert_int_equal(inner->pattern, PKI_PATTERN_REDUCE);
  assert_int_equal(xv->type.kind, PKI_F64); /* inferred from the nested acc (A's elements) */
  assert_cast_of(ns->args[1], PKI_I64, PKI_E_VAR);
  assert_int_equal(f->params[0]->access, PKI_ACCESS_READ); /* A read inside the closure */
  assert_int_equal(f->acc->access, PKI_ACCESS_READ | PKI_ACCESS_WRITE);
}

/* --------------------------------------------------------------- reducers */

static void test_reducers(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *mx = mk_workunit(m, "mx", PKI_PATTERN_REDUCE);
  mx->reducer = PKI_REDUCER_MAX;
  mx->acc = pki_new_var(m, "acc", PKI_VAR_ACC, F64, sp(2, 17));
  pki_stmt *ok = s_assign(m, &mx->body, PKI_S_ASSIGN, 0, e_var(m, mx->acc),
                          e_builtin(m, PKI_BUILTIN_MAX, 2,
                                    A2(e_var(m, mx->acc), e_var(m, mx->index[0]))), sp(3, 5));
  s_assign(m, &mx->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_var(m, mx->acc), e_int(m, 1), sp(4, 5));
  pki_func *pr = mk_workunit(m, "pr", PKI_PATTERN_REDUCE);
  pr->reducer = PKI_REDUCER_PROD;
  pr->acc = pki_new_var(m, "acc", PKI_VAR_ACC, F64, sp(2, 17));
  s_assign(m, &pr->body, PKI_S_AUGASSIGN, PKI_OP_MUL, e_var(m, pr->acc), e_float(m, 2.0), sp(5, 5));
  s_assign(m, &pr->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_var(m, pr->acc), e_float(m, 2.0), sp(6, 5));
  pki_expr *t = e_var(m, pr->acc);
  t->span = sp(7, 5);
  s_assign(m, &pr->body, PKI_S_ASSIGN, 0, t, e_float(m, 2.0), sp(7, 5));
  assert_int_equal(pki_check(m, &x->d), 3);
  expect_err(&x->d, 4, 5, "the accumulator 'acc' of a max reduction is updated by assignment, "
                          "e.g. acc = max(acc, x) (got +=)");
  expect_err(&x->d, 6, 5, "the accumulator 'acc' of a prod reduction only supports *= (got +=)");
  expect_err(&x->d, 7, 5, "cannot assign to the accumulator 'acc' of a prod reduction; use acc "
                          "*= value");
  assert_int_equal(ok->value->type.kind, PKI_F64);
}

/* --------------------------------------------------------------- dispatch */

/* workload W: members A (View1D f64), n (int), total (f64); workunits
 * wu(i, acc) reduce and fw(i) for; main dispatches. */
static pki_entity *mk_dispatch_workload(pki_module *m, pki_func **mainf, pki_func **wu,
                                        pki_func **fw) {
  pki_entity *e = mk_workload(m, mainf);
  pki_var *A = pki_new_var(m, "A", PKI_VAR_MEMBER, v1d(PKI_F64), sp(3, 9));
  pki_var *n = pki_new_var(m, "n", PKI_VAR_MEMBER, I64, sp(4, 9));
  pki_var *tot = pki_new_var(m, "total", PKI_VAR_MEMBER, F64, sp(5, 9));
  pki_entity_add_member(m, e, A);
  pki_entity_add_member(m, e, n);
  pki_entity_add_member(m, e, tot);
  pki_func *w = pki_new_func(m, "wu", sp(10, 9));
  w->is_workunit = true;
  w->pattern = PKI_PATTERN_REDUCE;
  pki_func_add_index(m, w, pki_new_var(m, "i", PKI_VAR_INDEX, I64, sp(10, 18)));
  w->acc = pki_new_var(m, "acc", PKI_VAR_ACC, F64, sp(10, 21));
  s_assign(m, &w->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_var(m, w->acc),
           e_index1(m, A, e_var(m, w->index[0])), sp(11, 13));
  pki_entity_add_func(m, e, w);
  pki_func *f = pki_new_func(m, "fw", sp(13, 9));
  f->is_workunit = true;
  pki_func_add_index(m, f, pki_new_var(m, "i", PKI_VAR_INDEX, I64, sp(13, 18)));
  s_assign(m, &f->body, PKI_S_ASSIGN, 0, e_index1(m, A, e_var(m, f->index[0])), e_float(m, 1.0),
           sp(14, 13));
  pki_entity_add_func(m, e, f);
  *wu = w;
  *fw = f;
  return e;
}

static void test_dispatch(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *mainf, *wu, *fw;
  pki_entity *e = mk_dispatch_workload(m, &mainf, &wu, &fw);
  pki_var *n = e->members[1], *tot = e->members[2];
  pki_stmt *d1 = s_par(m, &mainf->body, PKI_S_DISPATCH, PKI_PATTERN_FOR, PKI_POLICY_RANGE, fw, 2,
                       A2(e_int(m, 0), e_var(m, n)), NULL, sp(31, 9));
  d1->str = "fill";
  s_par(m, &mainf->body, PKI_S_DISPATCH, PKI_PATTERN_REDUCE, PKI_POLICY_RANGE, wu, 2,
        A2(e_bool(m, 0), e_var(m, n)), e_var(m, tot), sp(32, 9));
  /* lambda: self.total = pk.parallel_reduce(n, lambda i, acc: acc + self.A[i]) */
  static const char *const ij[] = {"i"};
  pki_func *lam = mk_closure(m, mainf, "lambda", 1, ij, "acc", F64);
  s_assign(m, &lam->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_var(m, lam->acc),
           e_index1(m, e->members[0], e_var(m, lam->index[0])), sp(33, 50));
  pki_stmt *d3 = s_par(m, &mainf->body, PKI_S_DISPATCH, PKI_PATTERN_REDUCE, PKI_POLICY_RANGE, lam,
                       2, A2(NULL, e_var(m, n)), e_var(m, tot), sp(33, 9));
  pki_stmt *assign_n = s_assign(m, &mainf->body, PKI_S_AUGASSIGN, PKI_OP_ADD, e_var(m, n),
                                e_int(m, 1), sp(34, 9));
  assert_int_equal(check_ok(x), 0);
  assert_int_equal(tot->access, PKI_ACCESS_WRITE);
  assert_int_equal(n->access, PKI_ACCESS_READ | PKI_ACCESS_WRITE);
  assert_int_equal(e->members[0]->access, PKI_ACCESS_READ | PKI_ACCESS_WRITE);
  assert_int_equal(lam->pattern, PKI_PATTERN_REDUCE);
  assert_int_equal(d3->args[1]->type.kind, PKI_I64);
  (void)assign_n;
}

static void test_dispatch_errors(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *mainf, *wu, *fw;
  pki_entity *e = mk_dispatch_workload(m, &mainf, &wu, &fw);
  pki_var *n = e->members[1], *tot = e->members[2];
  s_par(m, &mainf->body, PKI_S_DISPATCH, PKI_PATTERN_REDUCE, PKI_POLICY_RANGE, fw, 1,
        A1(e_var(m, n)), e_var(m, tot), sp(31, 9));
  s_par(m, &mainf->body, PKI_S_DISPATCH, PKI_PATTERN_FOR, PKI_POLICY_TEAM, fw, 2,
        A2(e_var(m, n), NULL), NULL, sp(32, 9));
  pki_func *md = pki_new_func(m, "md", sp(15, 9));
  md->is_workunit = true;
  md->policy = PKI_POLICY_MDRANGE;
  pki_func_add_index(m, md, pki_new_var(m, "i", PKI_VAR_INDEX, I64, sp(15, 18)));
  pki_func_add_index(m, md, pki_new_var(m, "j", PKI_VAR_INDEX, pki_void_type, sp(15, 21)));
  pki_entity_add_func(m, e, md);
  pki_expr *b = e_list(m, 2, A2(e_int(m, 0), e_int(m, 0)));
  pki_expr *en = e_list(m, 3, A3(e_var(m, n), e_var(m, n), e_var(m, n)));
  en->span = sp(33, 40);
  s_par(m, &mainf->body, PKI_S_DISPATCH, PKI_PATTERN_FOR, PKI_POLICY_MDRANGE, md, 2, A2(b, en),
        NULL, sp(33, 9));
  pki_func *k = mk_workunit(m, "k", PKI_PATTERN_FOR);
  s_par(m, &k->body, PKI_S_DISPATCH, PKI_PATTERN_FOR, PKI_POLICY_RANGE, fw, 1, A1(e_int(m, 3)),
        NULL, sp(5, 5));
  assert_int_equal(pki_check(m, &x->d), 4);
  expect_err(&x->d, 31, 9, "pk.parallel_reduce needs a reduce workunit, but 'fw' is a for "
                           "workunit (give it an accumulator: acc: pk.Acc[...])");
  expect_err(&x->d, 32, 9, "'fw' is a range workunit; dispatch it with pk.RangePolicy(...)");
  expect_err(&x->d, 33, 40, "this MDRangePolicy list has 3 entries but the workunit takes 2 "
                            "indices");
  expect_err(&x->d, 5, 5, "pk.parallel_for with a policy can only be used in a workload's "
                          "@pk.main; inside a team workunit use pk.TeamThreadRange");
  assert_int_equal(md->index[1]->type.kind, PKI_I64);
  assert_int_equal(b->type.kind, PKI_ARRAY);
}

/* ---------------------------------------------------------------- printer */

static char *print_to_string(const pki_module *m) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  pki_print(m, f);
  fclose(f);
  return buf;
}

static void compare(pki_module *m, const char *expected) {
  char *got = print_to_string(m);
  if (strcmp(got, expected) != 0)
    fprintf(stderr, "--- expected\n%s--- got\n%s", expected, got);
  assert_string_equal(got, expected);
  free(got);
}

static void test_print_team(void **state) {
  fx *x = *state;
  pki_var *xv;
  pki_func *inner;
  mk_team_nested(x->m, &xv, &inner);
  assert_int_equal(check_ok(x), 0);
  compare(x->m,
          "module t (tests/t.py)\n"
          "workunit k [entity k] pattern=reduce policy=team reducer=sum @2:5\n"
          "  index m: TeamMember\n"
          "  acc acc: float64 rw\n"
          "  param A: View1D[float64] r\n"
          "  param n: int32 r\n"
          "  body:\n"
          "    nested parallel_reduce TeamThreadRange(m, cast<int64>(n)) -> x @22:9\n"
          "      closure inner pattern=reduce reducer=sum @20:9\n"
          "        index j: int64\n"
          "        acc a: float64 rw\n"
          "        body:\n"
          "          augassign a += (index:float64 A j) @21:13\n"
          "    single PerTeam(m) @25:9\n"
          "      closure once @20:9\n"
          "        body:\n"
          "          augassign acc += x @24:13\n");
}

static void test_print_workload(void **state) {
  fx *x = *state;
  pki_module *m = x->m;
  pki_func *mainf, *wu, *fw;
  pki_entity *e = mk_dispatch_workload(m, &mainf, &wu, &fw);
  pki_stmt *d = s_par(m, &mainf->body, PKI_S_DISPATCH, PKI_PATTERN_REDUCE, PKI_POLICY_RANGE, wu,
                      2, A2(e_int(m, 0), e_var(m, e->members[1])), e_var(m, e->members[2]),
                      sp(31, 9));
  d->str = "sum";
  pki_var *t = local(m, "t", pki_void_type);
  s_decl(m, mainf, t, e_intr(m, PKI_INTRINSIC_TIMER_NEW, 0, NULL, sp(32, 13)), sp(32, 9));
  assert_int_equal(check_ok(x), 0);
  compare(m,
          "module t (tests/t.py)\n"
          "workload W @1:7\n"
          "  member A: View1D[float64] rw\n"
          "  member n: int64 r\n"
          "  member total: float64 w\n"
          "  main run @30:9\n"
          "    body:\n"
          "      dispatch parallel_reduce RangePolicy(0, n) self.wu label=\"sum\" -> total @31:9\n"
          "      decl t: Timer = (pk.Timer:Timer) @32:9\n"
          "  workunit wu pattern=reduce policy=range reducer=sum @10:9\n"
          "    index i: int64\n"
          "    acc acc: float64 rw\n"
          "    body:\n"
          "      augassign acc += (index:float64 A i) @11:13\n"
          "  workunit fw pattern=for policy=range @13:9\n"
          "    index i: int64\n"
          "    body:\n"
          "      assign (index:float64 A i) = 1.0 @14:13\n");
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_team_intrinsics), T(test_team_intrinsic_errors), T(test_atomics),
      T(test_atomic_errors),   T(test_random),                T(test_subview),
      T(test_main_timer),      T(test_main_errors),           T(test_classtype),
      T(test_lists),           T(test_assert),                T(test_nested_single),
      T(test_reducers),        T(test_dispatch),              T(test_dispatch_errors),
      T(test_print_team),      T(test_print_workload),
  };
  return cmocka_run_group_tests_name("check_dialect", tests, NULL, NULL);
}
