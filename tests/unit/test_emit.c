/*
 * test_emit.c - the Kokkos backend: IR built by hand (typed, with explicit
 * casts, as pki_check leaves it) -> pkb_emit text checks; and, when the
 * OpenMP Kokkos install is present, pkb_build + dlopen + kernel calls with
 * numbers checked, a warning-free -Wall -Wextra compile, and the cache.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <sys/stat.h>

#define EMIT_TMP_TEMPLATE "/tmp/pkc_test_emit_XXXXXX"
#include "access.h"
#include "emit_test_util.h"
#include "frontend.h"

/* ------------------------------------------------------------ IR builders */

typedef struct B {
  pki_module *m;
} B;

static pki_span sp(int line) { return (pki_span){.line = (uint32_t)line, .col = 5}; }

static pki_expr *var(B *b, pki_var *v) {
  pki_expr *e = pki_new_expr(b->m, PKI_E_VAR, sp(0));
  e->var = v;
  e->type = v->type;
  return e;
}

static pki_expr *lit_i(B *b, int64_t x) {
  pki_expr *e = pki_new_expr(b->m, PKI_E_INT, sp(0));
  e->ival = x;
  e->type = pki_int_type;
  return e;
}

static pki_expr *lit_f(B *b, double x, const char *name) {
  pki_expr *e = pki_new_expr(b->m, PKI_E_FLOAT, sp(0));
  e->fval = x;
  e->str = name;
  e->type = pki_float_type;
  return e;
}

static pki_expr *node(B *b, pki_expr_kind k, pki_op op, pki_type t, int n, ...) {
  pki_expr *e = pki_new_expr_n(b->m, k, sp(0), n);
  e->op = op;
  e->type = t;
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    e->args[i] = va_arg(ap, pki_expr *);
  va_end(ap);
  return e;
}

static pki_expr *bin(B *b, pki_op op, pki_expr *l, pki_expr *r) {
  return node(b, PKI_E_BINARY, op, l->type, 2, l, r);
}

static pki_expr *at(B *b, pki_var *v, pki_expr *i) {
  return node(b, PKI_E_INDEX, PKI_OP_NONE, pki_scalar(v->type.elem), 2, var(b, v), i);
}

static pki_stmt *st(B *b, pki_stmt_kind k, int line) { return pki_new_stmt(b->m, k, sp(line)); }

static pki_stmt *assign(B *b, int line, pki_op op, pki_expr *target, pki_expr *value) {
  pki_stmt *s = st(b, op ? PKI_S_AUGASSIGN : PKI_S_ASSIGN, line);
  s->op = op;
  s->target = target;
  s->value = value;
  return s;
}

static pki_var *param(B *b, pki_func *f, const char *name, pki_type t, unsigned access) {
  pki_var *v = pki_new_var(b->m, name, PKI_VAR_PARAM, t, sp(f->span.line));
  v->access = access;
  pki_func_add_param(b->m, f, v);
  return v;
}

/* A FunctionSty workunit entity with index i; returns the func. */
static pki_func *workunit(B *b, const char *name, int line, pki_pattern pat, pki_var **i) {
  pki_entity *e = pki_new_entity(b->m, PKI_ENT_WORKUNIT, name, sp(line));
  pki_func *f = pki_new_func(b->m, name, sp(line));
  f->is_workunit = true;
  f->pattern = pat;
  f->policy = PKI_POLICY_RANGE;
  *i = pki_new_var(b->m, "i", PKI_VAR_INDEX, pki_int_type, sp(line));
  pki_func_add_index(b->m, f, *i);
  pki_entity_add_func(b->m, e, f);
  pki_module_add_entity(b->m, e);
  return f;
}

enum { RW = PKI_ACCESS_READ | PKI_ACCESS_WRITE, RO = PKI_ACCESS_READ };

/* def nstream(i, A, B, C, scalar): A[i] += B[i] + scalar * C[i]   (line 6) */
static void add_nstream(B *b) {
  pki_var *i;
  pki_func *f = workunit(b, "nstream", 4, PKI_PATTERN_FOR, &i);
  pki_type v1 = pki_view(PKI_F64, 1, PKI_LAYOUT_RIGHT);
  pki_var *A = param(b, f, "A", v1, RW), *Bv = param(b, f, "B", v1, RO),
          *C = param(b, f, "C", v1, RO), *s = param(b, f, "scalar", pki_float_type, RO);
  pki_expr *rhs = bin(b, PKI_OP_ADD, at(b, Bv, var(b, i)),
                      bin(b, PKI_OP_MUL, var(b, s), at(b, C, var(b, i))));
  pki_block_push(b->m->arena, &f->body, assign(b, 6, PKI_OP_ADD, at(b, A, var(b, i)), rhs));
}

/* def dot(i, acc, x, y): acc += x[i] * y[i]   (line 10) */
static void add_dot(B *b) {
  pki_var *i;
  pki_func *f = workunit(b, "dot", 9, PKI_PATTERN_REDUCE, &i);
  f->acc = pki_new_var(b->m, "acc", PKI_VAR_ACC, pki_float_type, sp(9));
  pki_type v1 = pki_view(PKI_F64, 1, PKI_LAYOUT_DEFAULT);
  pki_var *x = param(b, f, "x", v1, RO), *y = param(b, f, "y", v1, RO);
  pki_block_push(b->m->arena, &f->body,
                 assign(b, 10, PKI_OP_ADD, var(b, f->acc),
                        bin(b, PKI_OP_MUL, at(b, x, var(b, i)), at(b, y, var(b, i)))));
}

/* def prefix(i, acc, final, v): val = v[i]; if final: v[i] = acc; acc += val  (13-16) */
static void add_scan(B *b) {
  pki_var *i;
  pki_func *f = workunit(b, "prefix", 12, PKI_PATTERN_SCAN, &i);
  f->acc = pki_new_var(b->m, "acc", PKI_VAR_ACC, pki_int_type, sp(12));
  f->final = pki_new_var(b->m, "final", PKI_VAR_FINAL, pki_bool_type, sp(12));
  pki_var *v = param(b, f, "v", pki_view(PKI_I64, 1, PKI_LAYOUT_RIGHT), RW);
  pki_var *val = pki_new_var(b->m, "val", PKI_VAR_LOCAL, pki_int_type, sp(13));
  pki_func_add_local(b->m, f, val);
  pki_stmt *d = st(b, PKI_S_DECL, 13);
  d->var = val;
  d->value = at(b, v, var(b, i));
  pki_stmt *iff = st(b, PKI_S_IF, 14);
  iff->cond = var(b, f->final);
  pki_block_push(b->m->arena, &iff->body, assign(b, 15, 0, at(b, v, var(b, i)), var(b, f->acc)));
  pki_block_push(b->m->arena, &f->body, d);
  pki_block_push(b->m->arena, &f->body, iff);
  pki_block_push(b->m->arena, &f->body, assign(b, 16, PKI_OP_ADD, var(b, f->acc), var(b, val)));
}

/* @pk.function def sq(x: float) -> float: return x * x   (line 19) */
static pki_func *add_sq(B *b) {
  pki_entity *e = pki_new_entity(b->m, PKI_ENT_FUNCTION, "sq", sp(18));
  pki_func *f = pki_new_func(b->m, "sq", sp(18));
  f->ret = pki_float_type;
  pki_var *x = param(b, f, "x", pki_float_type, RO);
  pki_stmt *r = st(b, PKI_S_RETURN, 19);
  r->value = bin(b, PKI_OP_MUL, var(b, x), var(b, x));
  pki_block_push(b->m->arena, &f->body, r);
  pki_entity_add_func(b->m, e, f);
  pki_module_add_entity(b->m, e);
  return f;
}

/* def misc(i, out, n):                                        (line 21)
 *   t: float = 0.0                                            22
 *   for j in range(0, n, 2): t += float(j % 3)                23-24
 *   for k in range(n, 0, -1): t -= 1.0                        25-26
 *   out[i] = t + sq(float((i - 5) // 2)) + float((i - 5) % 3) + math.pi + 2 ** 3  27 */
static void add_misc(B *b, pki_func *sq) {
  pki_var *i;
  pki_func *f = workunit(b, "misc", 21, PKI_PATTERN_FOR, &i);
  pki_var *out = param(b, f, "out", pki_view(PKI_F64, 1, PKI_LAYOUT_RIGHT), RW);
  pki_var *n = param(b, f, "n", pki_int_type, RO);
  pki_arena *a = b->m->arena;
  pki_var *t = pki_new_var(b->m, "t", PKI_VAR_LOCAL, pki_float_type, sp(22));
  pki_stmt *d = st(b, PKI_S_DECL, 22);
  d->var = t;
  d->value = lit_f(b, 0.0, NULL);
  pki_block_push(a, &f->body, d);
  pki_var *j = pki_new_var(b->m, "j", PKI_VAR_LOCAL, pki_int_type, sp(23));
  pki_stmt *l1 = st(b, PKI_S_FOR, 23);
  l1->var = j;
  l1->begin = lit_i(b, 0);
  l1->end = var(b, n);
  l1->step = lit_i(b, 2);
  pki_block_push(a, &l1->body,
                 assign(b, 24, PKI_OP_ADD, var(b, t),
                        pki_cast(b->m, bin(b, PKI_OP_MOD, var(b, j), lit_i(b, 3)), pki_float_type)));
  pki_block_push(a, &f->body, l1);
  pki_var *k = pki_new_var(b->m, "k", PKI_VAR_LOCAL, pki_int_type, sp(25));
  pki_stmt *l2 = st(b, PKI_S_FOR, 25);
  l2->var = k;
  l2->begin = var(b, n);
  l2->end = lit_i(b, 0);
  l2->step = lit_i(b, -1);
  pki_block_push(a, &l2->body, assign(b, 26, PKI_OP_SUB, var(b, t), lit_f(b, 1.0, NULL)));
  pki_block_push(a, &f->body, l2);
  pki_expr *im5 = bin(b, PKI_OP_SUB, var(b, i), lit_i(b, 5));
  pki_expr *call = pki_new_expr_n(b->m, PKI_E_CALL, sp(27), 1);
  call->func = sq;
  call->type = pki_float_type;
  call->args[0] = pki_cast(b->m, bin(b, PKI_OP_FLOORDIV, im5, lit_i(b, 2)), pki_float_type);
  pki_expr *sum = bin(b, PKI_OP_ADD, var(b, t), call);
  sum = bin(b, PKI_OP_ADD, sum,
            pki_cast(b->m, bin(b, PKI_OP_MOD, bin(b, PKI_OP_SUB, var(b, i), lit_i(b, 5)),
                               lit_i(b, 3)), pki_float_type));
  sum = bin(b, PKI_OP_ADD, sum, lit_f(b, 3.141592653589793, "pi"));
  sum = bin(b, PKI_OP_ADD, sum,
            pki_cast(b->m, bin(b, PKI_OP_POW, lit_i(b, 2), lit_i(b, 3)), pki_float_type));
  pki_block_push(a, &f->body, assign(b, 27, 0, at(b, out, var(b, i)), sum));
}

/* @pk.functor class Scale: a: View1D[float32] (LayoutLeft), s: float32;
 * @pk.function def twice(self, x: float32) -> float32: return x + x
 * @pk.workunit def scale(self, i): self.a[i] = self.twice(self.a[i]) * self.s  (32-35)
 * @pk.workunit def total(self, i, acc: pk.Acc[float]): acc = max(acc, float(self.a[i])) */
static void add_functor(B *b) {
  pki_arena *a = b->m->arena;
  pki_entity *e = pki_new_entity(b->m, PKI_ENT_FUNCTOR, "Scale", sp(30));
  pki_var *va = pki_new_var(b->m, "a", PKI_VAR_MEMBER, pki_view(PKI_F32, 1, PKI_LAYOUT_LEFT), sp(31));
  va->access = RW;
  pki_var *vs = pki_new_var(b->m, "s", PKI_VAR_MEMBER, pki_scalar(PKI_F32), sp(31));
  vs->access = RO;
  pki_entity_add_member(b->m, e, va);
  pki_entity_add_member(b->m, e, vs);
  pki_func *tw = pki_new_func(b->m, "twice", sp(32));
  tw->ret = pki_scalar(PKI_F32);
  pki_var *x = param(b, tw, "x", pki_scalar(PKI_F32), RO);
  pki_stmt *r = st(b, PKI_S_RETURN, 33);
  r->value = bin(b, PKI_OP_ADD, var(b, x), var(b, x));
  pki_block_push(a, &tw->body, r);
  pki_entity_add_func(b->m, e, tw);
  pki_func *w = pki_new_func(b->m, "scale", sp(34));
  w->is_workunit = true;
  pki_var *i = pki_new_var(b->m, "i", PKI_VAR_INDEX, pki_int_type, sp(34));
  pki_func_add_index(b->m, w, i);
  pki_expr *call = pki_new_expr_n(b->m, PKI_E_CALL, sp(35), 1);
  call->func = tw;
  call->type = pki_scalar(PKI_F32);
  call->args[0] = at(b, va, var(b, i));
  pki_block_push(a, &w->body, assign(b, 35, 0, at(b, va, var(b, i)),
                                     bin(b, PKI_OP_MUL, call, var(b, vs))));
  pki_entity_add_func(b->m, e, w);
  pki_func *m = pki_new_func(b->m, "biggest", sp(36));
  m->is_workunit = true;
  m->pattern = PKI_PATTERN_REDUCE;
  m->reducer = PKI_REDUCER_MAX;
  pki_var *i2 = pki_new_var(b->m, "i", PKI_VAR_INDEX, pki_int_type, sp(36));
  pki_func_add_index(b->m, m, i2);
  m->acc = pki_new_var(b->m, "acc", PKI_VAR_ACC, pki_float_type, sp(36));
  pki_expr *mx = node(b, PKI_E_BUILTIN, PKI_OP_NONE, pki_float_type, 2, var(b, m->acc),
                      pki_cast(b->m, at(b, va, var(b, i2)), pki_float_type));
  mx->builtin = PKI_BUILTIN_MAX;
  pki_block_push(a, &m->body, assign(b, 37, 0, var(b, m->acc), mx));
  pki_entity_add_func(b->m, e, m);
  pki_module_add_entity(b->m, e);
}

/* @pk.workunit def fill2d(i: int, j: int, M: pk.View2D[float]): M[i][j] = float(i * 10 + j)
 * (MDRangePolicy, lines 40-41) */
static void add_fill2d(B *b) {
  pki_var *i;
  pki_func *f = workunit(b, "fill2d", 40, PKI_PATTERN_FOR, &i);
  f->policy = PKI_POLICY_MDRANGE;
  pki_var *j = pki_new_var(b->m, "j", PKI_VAR_INDEX, pki_int_type, sp(40));
  pki_func_add_index(b->m, f, j);
  pki_var *M = param(b, f, "M", pki_view(PKI_F64, 2, PKI_LAYOUT_RIGHT), PKI_ACCESS_WRITE);
  pki_expr *ix = node(b, PKI_E_INDEX, PKI_OP_NONE, pki_float_type, 3, var(b, M), var(b, i), var(b, j));
  pki_expr *v = bin(b, PKI_OP_ADD, bin(b, PKI_OP_MUL, var(b, i), lit_i(b, 10)), var(b, j));
  pki_block_push(b->m->arena, &f->body, assign(b, 41, 0, ix, pki_cast(b->m, v, pki_float_type)));
}

static pki_stmt *decl(B *b, pki_func *f, int line, const char *name, pki_type t, pki_expr *v) {
  pki_var *x = pki_new_var(b->m, name, PKI_VAR_LOCAL, t, sp(line));
  pki_func_add_local(b->m, f, x);
  pki_stmt *d = st(b, PKI_S_DECL, line);
  d->var = x;
  d->value = v;
  return d;
}

static pki_expr *builtin(B *b, pki_builtin id, pki_type t, int n, pki_expr *a0, pki_expr *a1,
                         pki_expr *a2) {
  pki_expr *e = node(b, PKI_E_BUILTIN, PKI_OP_NONE, t, n, a0, a1, a2);
  e->builtin = id;
  return e;
}

/* Constructs that are easy to get warnings from (lines 50-62):
 * def ops(i, out: View1D[float], flags: View1D[bool], n: int, step: int):
 *   x: float = float(i) * 0.5                      50
 *   unused: float32 = -1.5                         51
 *   k: int = 0                                     52
 *   while k < n and not k > 100: k += 1            53-54
 *   for j in range(n, 0, step): x += 1.0           55-56   (runtime step)
 *   if i % 2 == 0: x = -x                          57-58
 *   elif i == 1: x = sqrt(x)                       59
 *   else: x = x if x > 1.0 else 1.5e-7             60
 *   y: int = (i << 2) >> 1 | 1 ^ 3 & ~i            61
 *   if flags[i] or 0 <= i < n: pk.printf(...) only when i < 0     62-63
 *   out[i] = x + float(y) + abs(-2.5) + min(1.0, 2.0, x) + float(out.extent(0))  64 */
static void add_ops(B *b) {
  pki_arena *a = b->m->arena;
  pki_var *i;
  pki_func *f = workunit(b, "ops", 49, PKI_PATTERN_FOR, &i);
  pki_var *out = param(b, f, "out", pki_view(PKI_F64, 1, PKI_LAYOUT_RIGHT), RW);
  pki_var *flags = param(b, f, "flags", pki_view(PKI_BOOL, 1, PKI_LAYOUT_RIGHT), RO);
  pki_var *n = param(b, f, "n", pki_int_type, RO);
  pki_var *step = param(b, f, "step", pki_int_type, RO);
  pki_type F = pki_float_type, I = pki_int_type, Bo = pki_bool_type;
  pki_stmt *dx = decl(b, f, 50, "x", F, bin(b, PKI_OP_MUL, pki_cast(b->m, var(b, i), F), lit_f(b, 0.5, NULL)));
  pki_var *x = dx->var;
  pki_block_push(a, &f->body, dx);
  pki_expr *m15 = lit_f(b, -1.5, NULL);
  pki_block_push(a, &f->body, decl(b, f, 51, "unused", pki_scalar(PKI_F32), pki_cast(b->m, m15, pki_scalar(PKI_F32))));
  pki_stmt *dk = decl(b, f, 52, "k", I, lit_i(b, 0));
  pki_var *k = dk->var;
  pki_block_push(a, &f->body, dk);
  pki_stmt *w = st(b, PKI_S_WHILE, 53);
  w->cond = node(b, PKI_E_LOGICAL, PKI_OP_AND, Bo, 2,
                 node(b, PKI_E_COMPARE, PKI_OP_LT, Bo, 2, var(b, k), var(b, n)),
                 node(b, PKI_E_UNARY, PKI_OP_NOT, Bo, 1,
                      node(b, PKI_E_COMPARE, PKI_OP_GT, Bo, 2, var(b, k), lit_i(b, 100))));
  pki_block_push(a, &w->body, assign(b, 54, PKI_OP_ADD, var(b, k), lit_i(b, 1)));
  pki_block_push(a, &f->body, w);
  pki_stmt *l = st(b, PKI_S_FOR, 55);
  l->var = pki_new_var(b->m, "j", PKI_VAR_LOCAL, I, sp(55));
  l->begin = var(b, n);
  l->end = lit_i(b, 0);
  l->step = var(b, step);
  pki_block_push(a, &l->body, assign(b, 56, PKI_OP_ADD, var(b, x), lit_f(b, 1.0, NULL)));
  pki_block_push(a, &f->body, l);
  pki_stmt *if1 = st(b, PKI_S_IF, 57), *if2 = st(b, PKI_S_IF, 59);
  if1->cond = node(b, PKI_E_COMPARE, PKI_OP_EQ, Bo, 2, bin(b, PKI_OP_MOD, var(b, i), lit_i(b, 2)), lit_i(b, 0));
  pki_block_push(a, &if1->body, assign(b, 58, 0, var(b, x), node(b, PKI_E_UNARY, PKI_OP_NEG, F, 1, var(b, x))));
  if2->cond = node(b, PKI_E_COMPARE, PKI_OP_EQ, Bo, 2, var(b, i), lit_i(b, 1));
  pki_block_push(a, &if2->body, assign(b, 59, 0, var(b, x), builtin(b, PKI_BUILTIN_SQRT, F, 1, var(b, x), NULL, NULL)));
  pki_block_push(a, &if2->orelse, assign(b, 60, 0, var(b, x),
      node(b, PKI_E_COND, PKI_OP_NONE, F, 3,
           node(b, PKI_E_COMPARE, PKI_OP_GT, Bo, 2, var(b, x), lit_f(b, 1.0, NULL)), var(b, x), lit_f(b, 1.5e-7, NULL))));
  pki_block_push(a, &if1->orelse, if2);
  pki_block_push(a, &f->body, if1);
  pki_expr *sh = bin(b, PKI_OP_SHR, bin(b, PKI_OP_SHL, var(b, i), lit_i(b, 2)), lit_i(b, 1));
  pki_expr *inv = node(b, PKI_E_UNARY, PKI_OP_INVERT, I, 1, var(b, i));
  pki_expr *y = bin(b, PKI_OP_BITOR, sh, bin(b, PKI_OP_BITXOR, lit_i(b, 1), bin(b, PKI_OP_BITAND, lit_i(b, 3), inv)));
  pki_stmt *dy = decl(b, f, 61, "y", I, y);
  pki_block_push(a, &f->body, dy);
  pki_stmt *if3 = st(b, PKI_S_IF, 62);
  pki_expr *chain = node(b, PKI_E_LOGICAL, PKI_OP_AND, Bo, 2,
                         node(b, PKI_E_COMPARE, PKI_OP_LE, Bo, 2, lit_i(b, 0), var(b, i)),
                         node(b, PKI_E_COMPARE, PKI_OP_LT, Bo, 2, var(b, i), var(b, n)));
  if3->cond = node(b, PKI_E_LOGICAL, PKI_OP_AND, Bo, 2,
                   node(b, PKI_E_LOGICAL, PKI_OP_OR, Bo, 2, at(b, flags, var(b, i)), chain),
                   node(b, PKI_E_COMPARE, PKI_OP_LT, Bo, 2, var(b, i), lit_i(b, 0)));
  pki_stmt *pf = st(b, PKI_S_PRINTF, 63);
  pf->nargs = 4;
  pf->args = pki_alloc(a, 4 * sizeof(pki_expr *));
  pf->args[0] = pki_new_expr(b->m, PKI_E_STR, sp(63));
  pf->args[0]->str = "i=%lld y=%d x=%f \"100%%\"\n";
  pf->args[0]->type = pki_scalar(PKI_STR);
  pf->args[1] = var(b, i);
  pf->args[2] = var(b, dy->var);
  pf->args[3] = var(b, x);
  pki_block_push(a, &if3->body, pf);
  pki_block_push(a, &f->body, if3);
  pki_expr *sum = bin(b, PKI_OP_ADD, var(b, x), pki_cast(b->m, var(b, dy->var), F));
  sum = bin(b, PKI_OP_ADD, sum, builtin(b, PKI_BUILTIN_ABS, F, 1, lit_f(b, -2.5, NULL), NULL, NULL));
  sum = bin(b, PKI_OP_ADD, sum, builtin(b, PKI_BUILTIN_MIN, F, 3, lit_f(b, 1.0, NULL), lit_f(b, 2.0, NULL), var(b, x)));
  pki_expr *ext = pki_new_expr_n(b->m, PKI_E_EXTENT, sp(64), 1);
  ext->args[0] = var(b, out);
  ext->type = I;
  sum = bin(b, PKI_OP_ADD, sum, pki_cast(b->m, ext, F));
  pki_block_push(a, &f->body, assign(b, 64, 0, at(b, out, var(b, i)), sum));
}

static const char *SRC = "import pykokkos as pk\n# (test source: IR is built by hand)\n";

static pki_module *make_module(const char *abspath) {
  pki_module *m = pki_module_new(abspath, abspath, SRC, strlen(SRC));
  B b = {m};
  add_nstream(&b);
  add_dot(&b);
  add_scan(&b);
  add_misc(&b, add_sq(&b));
  add_functor(&b);
  add_fill2d(&b);
  add_ops(&b);
  pki_record_uses(m); /* what pki_check leaves for backends */
  return m;
}

/* ------------------------------------------------------------ emit tests */

static void test_emit_text(void **state) {
  (void)state;
  char out[300], py[300], err[512] = "";
  snprintf(out, sizeof out, "%s/kern.pk", tmpdir);
  snprintf(py, sizeof py, "%s/kern.py", tmpdir);
  pki_module *m = make_module(py);
  pkb_options o = opts(out);
  assert_int_equal(pkb_emit(m, &o, err, sizeof err), 0);
  char path[400];
  snprintf(path, sizeof path, "%s/kern.cpp", out);
  char *cpp = slurp(path);
  assert_non_null(cpp);
  HAS(cpp, "#include \"pkc_kokkos.hpp\"");
  HAS(cpp, "namespace pkc_kern {");
  HAS(cpp, "struct nstream {\n  struct nstream_tag {};");
  HAS(cpp, "  pkc::View<double *, Kokkos::LayoutRight> A;\n");
  HAS(cpp, "  double scalar;\n");
  HAS(cpp, "KOKKOS_FORCEINLINE_FUNCTION void operator()(const nstream_tag &, const int64_t i) const {");
  char line6[400];
  snprintf(line6, sizeof line6, "#line 6 \"%s\"\n    A(i) += B(i) + scalar * C(i);\n", py);
  HAS(cpp, line6);
  HAS(cpp, "pkc::View<double *, pkc::DefaultLayout> x;");
  HAS(cpp, "void operator()(const dot_tag &, const int64_t i, double &acc) const {");
  HAS(cpp, "acc += x(i) * y(i);");
  HAS(cpp, "void operator()(const prefix_tag &, const int64_t i, int64_t &acc, const bool final) const {");
  HAS(cpp, "int64_t val = v(i);");
  HAS(cpp, "if (final) {");
  HAS(cpp, "KOKKOS_FORCEINLINE_FUNCTION double sq(double x);");
  HAS(cpp, "for (int64_t j = 0; j < n; j += 2) {");
  HAS(cpp, "for (int64_t k = n; k > 0; --k) {");
  HAS(cpp, "t += static_cast<double>(pkc::pymod(j, 3));");
  /* a long sum continues on the next line, before an operator */
  HAS(cpp, "out(i) = t + sq(static_cast<double>(pkc::floordiv(i - 5, 2))) + "
           "static_cast<double>(pkc::pymod(i - 5, 3))\n        + pkc::pi + "
           "static_cast<double>(pkc::ipow(INT64_C(2), 3));");
  HAS(cpp, "struct Scale {\n  struct scale_tag {};\n  struct biggest_tag {};");
  HAS(cpp, "pkc::View<float *, Kokkos::LayoutLeft> a;");
  HAS(cpp, "KOKKOS_FORCEINLINE_FUNCTION float twice(float x) const {");
  HAS(cpp, "a(i) = twice(a(i)) * s;");
  HAS(cpp, "acc = pkc::max(acc, static_cast<double>(a(i)));");
  HAS(cpp, "extern \"C\" PKC_EXPORT int pkc_kern__nstream(void *const *args, const pkc_policy *policy,");
  HAS(cpp, "if (!pkc::bind_view(f.A, args[0], kernel, \"A\", err, errlen)) return 1;");
  HAS(cpp, "if (!pkc::bind_scalar(f.scalar, args[3], kernel, \"scalar\", err, errlen)) return 1;");
  HAS(cpp, "Kokkos::parallel_for(kernel, pkc::RangePolicy<pkc_kern::nstream::nstream_tag>(begin, end), f);");
  HAS(cpp, "Kokkos::parallel_reduce(kernel, ");
  HAS(cpp, "f, Kokkos::Max<double>(value));");
  HAS(cpp, "Kokkos::parallel_scan(kernel, ");
  HAS(cpp, "pkc_kern__Scale__scale(");
  HAS(cpp, "static const char kernel[] = \"Scale.scale\";");
  HAS(cpp, "{\"A\", PKC_PARAM_VIEW, kDLFloat, 64, 1, PKC_LAYOUT_RIGHT, PKC_ACCESS_READ | PKC_ACCESS_WRITE, 0},");
  HAS(cpp, "{\"scalar\", PKC_PARAM_SCALAR, kDLFloat, 64, 0, PKC_LAYOUT_DEFAULT, PKC_ACCESS_READ, 0},");
  HAS(cpp, "{\"nstream\", \"nstream\", PKC_PATTERN_FOR, PKC_POLICY_RANGE, PKC_REDUCER_SUM, 4, "
           "params_0, 0, 0, 4, pkc_kern__nstream, 0},");
  HAS(cpp, "void operator()(const fill2d_tag &, const int64_t i, const int64_t j) const {");
  HAS(cpp, "M(i, j) = static_cast<double>(i * 10 + j);");
  HAS(cpp, "pkc::MDRangePolicy<2, pkc_kern::fill2d::fill2d_tag>({policy->begin[0], policy->begin[1]}, "
           "{policy->end[0], policy->end[1]}, {policy->tile[0], policy->tile[1]})");
  HAS(cpp, "float unused = -1.5f;\n    (void)unused;");
  HAS(cpp, "while (k < n && !(k > 100)) {");
  HAS(cpp, "for (int64_t j = n; pkc::range_cond(j, 0, step); j += step) {");
  HAS(cpp, "if (pkc::pymod(i, 2) == 0) {");
  HAS(cpp, "} else if (i == 1) {");
  HAS(cpp, "x = x > 1.0 ? x : 1.5e-07;");
  HAS(cpp, "int64_t y = ((i << 2) >> 1) | (1 ^ (3 & ~i));");
  HAS(cpp, "if ((flags(i) || (0 <= i && i < n)) && i < 0) {");
  HAS(cpp, "PKC_PRINTF(\"i=%lld y=%d x=%f \\\"100%%\\\"\\n\", static_cast<long long>(i), "
           "static_cast<int>(y), x);");
  HAS(cpp, "out(i) = x + static_cast<double>(y) + pkc::abs(-2.5) + pkc::min(1.0, pkc::min(2.0, x))\n"
           "        + static_cast<double>(static_cast<int64_t>(out.extent(0)));");
  HAS(cpp, "extern \"C\" PKC_EXPORT const pkc_module_desc *pkc_module_v2(void) {");
  free(cpp);
  snprintf(path, sizeof path, "%s/kern.h", out);
  char *h = slurp(path);
  assert_non_null(h);
  HAS(h, "int pkc_kern__dot(void *const *args, const pkc_policy *policy, pkc_value *result,");
  HAS(h, " *   args[0] A: View1D[float64, LayoutRight], read-write");
  HAS(h, "const pkc_module_desc *pkc_module_v2(void);");
  free(h);
  snprintf(path, sizeof path, "%s/CMakeLists.txt", out);
  char *cm = slurp(path);
  assert_non_null(cm);
  HAS(cm, "find_package(Kokkos REQUIRED)");
  HAS(cm, "add_library(${PKC_TARGET} MODULE kern.cpp)");
  HAS(cm, "OUTPUT_NAME \"kern.${PKC_BACKEND}\"");
  free(cm);
  snprintf(path, sizeof path, "%s/pkc_kokkos.hpp", out);
  assert_int_equal(access(path, R_OK), 0);
  snprintf(path, sizeof path, "%s/pkc_abi.h", out);
  assert_int_equal(access(path, R_OK), 0);
  pki_module_free(m);
}

/* A module constant used as a View index goes in as a value: View::operator()
 * binds its indices to references, and device code cannot refer to a
 * namespace-scope constexpr (nvcc: "identifier ... is undefined in device
 * code"); elsewhere it keeps its bare name. */
/* Lowers and checks Python source src (no errors), emits it without #line
 * directives into <tmpdir>/<name>.pk; returns the text of <name>.<ext>
 * (malloc'd) and the module in *mod (the caller frees both). */
static char *emit_source(const char *src, const char *name, const char *ext, pki_module **mod) {
  char out[300], py[300], err[512] = "", path[400];
  snprintf(out, sizeof out, "%s/%s.pk", tmpdir, name);
  snprintf(py, sizeof py, "%s/%s.py", tmpdir, name);
  pki_diags d = {0};
  pki_module *m = pkf_lower(py, src, strlen(src), &d);
  assert_int_equal(d.errors + pki_check(m, &d), 0);
  pki_nonneg_plan_module(m); /* the pass the backend reads (pkc runs it before emit) */
  pkb_options o = opts(out);
  o.line_directives = false;
  assert_int_equal(pkb_emit(m, &o, err, sizeof err), 0);
  snprintf(path, sizeof path, "%s/%s.%s", out, name, ext);
  char *text = slurp(path);
  assert_non_null(text);
  *mod = m;
  return text;
}

static void test_emit_constant_index(void **state) {
  (void)state;
  static const char src[] = "import pykokkos as pk\n"
                            "FIRST = 0\n"
                            "SCALE = 2\n"
                            "@pk.workunit\n"
                            "def tally(i: int, counts: pk.View1D[pk.int32], m: pk.View2D[pk.int32]):\n"
                            "    pk.atomic_add(counts, [FIRST], 1)\n"
                            "    m[i][SCALE] = SCALE * counts[FIRST + 1]\n";
  pki_module *m;
  char *cpp = emit_source(src, "cindex", "cpp", &m);
  HAS(cpp, "constexpr int64_t FIRST = 0;");
  HAS(cpp, "pkc::atomic_add(&counts(static_cast<int64_t>(FIRST)), 1);");
  HAS(cpp, "m(i, static_cast<int64_t>(SCALE)) = ");
  assert_null(strstr(cpp, "counts(FIRST)"));
  free(cpp);
  pki_module_free(m);
}

/* A workload of two kernels and a FunctionSty workunit. */
static const char workload_src[] = "import pykokkos as pk\n"
                                   "@pk.workload\n"
                                   "class W:\n"
                                   "    def __init__(self, n: int):\n"
                                   "        self.n: int = n\n"
                                   "        self.x: pk.View1D[float] = pk.View([n], float)\n"
                                   "    @pk.main\n"
                                   "    def run(self):\n"
                                   "        pk.parallel_for(self.n, self.fill)\n"
                                   "        pk.parallel_for(self.n, self.twice)\n"
                                   "    @pk.workunit\n"
                                   "    def fill(self, i: int):\n"
                                   "        self.x[i] = i\n"
                                   "    @pk.workunit\n"
                                   "    def twice(self, i: int):\n"
                                   "        self.x[i] *= 2.0\n"
                                   "@pk.workunit\n"
                                   "def other(i: int, y: pk.View1D[float]):\n"
                                   "    y[i] = 1.0\n";

/* The kernels of a workload take the same members: one parameter table and
 * one argument list in the header for all of them, named by the others; a
 * @pk.main that uses self has no `(void)self;` (issue 27). */
static void test_emit_shared_tables(void **state) {
  (void)state;
  const char *src = workload_src;
  pki_module *m;
  char *cpp = emit_source(src, "tables", "cpp", &m);
  HAS(cpp, "const pkc_param_desc params_0[] = {  // W.run and 2 more kernels\n");
  HAS(cpp, "const pkc_param_desc params_3[] = {  // other\n");
  assert_null(strstr(cpp, "params_1[]"));
  HAS(cpp, "{\"twice\", \"W\", PKC_PATTERN_FOR, PKC_POLICY_RANGE, PKC_REDUCER_SUM, 2, params_0,");
  HAS(cpp, "{\"other\", \"other\", PKC_PATTERN_FOR, PKC_POLICY_RANGE, PKC_REDUCER_SUM, 1, params_3,");
  assert_null(strstr(cpp, "(void)self;"));
  free(cpp);
  pki_module_free(m);
  char *h = emit_source(src, "tables", "h", &m);
  HAS(h, " *   args[1] x: View1D[float64] (default layout of the backend), read-write */\n");
  HAS(h, "/* W.twice (line 15): parallel_for over a RangePolicy;\n *   args as for W.run */\n");
  HAS(h, "/* other (line 18): parallel_for over a RangePolicy\n *   args[0] y: ");
  free(h);
  pki_module_free(m);
}

/* The kernels of a workload bind the members they use through one
 * bind_<entity>, straight-line code testing a bit per member (no switch in a
 * loop); each call passes its members as bits and names them in a comment.
 * An entity with more than 64 members binds in each wrapper (issue 27). */
static void test_emit_binder(void **state) {
  (void)state;
  pki_module *m;
  char *cpp = emit_source(workload_src, "binder", "cpp", &m);
  HAS(cpp, "static bool bind_W(pkc_binder::W &f, void *const *args, uint64_t used,\n");
  HAS(cpp, "  if ((used >> 0 & 1) && !pkc::bind_scalar(f.n, args[0], kernel, \"n\", err, errlen)) "
           "return false;\n"
           "  if ((used >> 1 & 1) && !pkc::bind_view(f.x, args[1], kernel, \"x\", err, errlen)) "
           "return false;\n"
           "  return true;\n}\n");
  HAS(cpp, "    // binds n, x\n    if (!bind_W(f, args, 0x3u, kernel, err, errlen))\n      return 1;\n");
  HAS(cpp, "    // binds x\n    if (!bind_W(f, args, 0x2u, kernel, err, errlen))\n      return 1;\n");
  assert_null(strstr(cpp, "switch (k)"));
  free(cpp);
  pki_module_free(m);
  /* 65 members: no shared binder, each wrapper binds its own */
  char big[8192];
  int k = snprintf(big, sizeof big, "import pykokkos as pk\n@pk.workload\nclass B:\n"
                                    "    def __init__(self, n: int):\n");
  for (int i = 0; i < 65; i++)
    k += snprintf(big + k, sizeof big - (size_t)k, "        self.m%d: int = n\n", i);
  snprintf(big + k, sizeof big - (size_t)k,
           "    @pk.main\n    def run(self):\n        pk.parallel_for(self.m0, self.one)\n"
           "    @pk.workunit\n    def one(self, i: int):\n        pk.printf(\"%%d\\n\", self.m64)\n");
  cpp = emit_source(big, "binder65", "cpp", &m);
  assert_null(strstr(cpp, "bind_B("));
  HAS(cpp, "if (!pkc::bind_scalar(f.m64, args[64], kernel, \"m64\", err, errlen)) return 1;\n");
  free(cpp);
  pki_module_free(m);
}

/* Integer // and % with a positive constant divisor and a dividend pkc proves
 * >= 0 (ir/nonneg.c) are C++'s / and %; the work index (a RangePolicy may
 * begin below 0), a loop from a run-time start, a loop variable the body
 * assigns and a negative step keep pkc::pymod / pkc::floordiv (issue 27). */
static void test_emit_plain_div(void **state) {
  (void)state;
  static const char src[] = "import pykokkos as pk\n"
                            "@pk.workunit\n"
                            "def k(i: int, n: int, lo: int, y: pk.View1D[pk.int64]):\n"
                            "    s: int = i % 4 + i // 2\n"
                            "    for a in range(n):\n"
                            "        s += a % 4 + a // 3\n"
                            "        for c in range(a, n, 2):\n"
                            "            s += (c * a + 1) % 5 + len(y) // 7\n"
                            "    for b in range(lo, n):\n"
                            "        s += b % 4\n"
                            "    for d in range(n, 0, -1):\n"
                            "        s += d % 6\n"
                            "    for e in range(n):\n"
                            "        e = e - 5\n"
                            "        s += e % 8\n"
                            "    y[i] = s + (i - 3) % 7 // 2 + abs(i) % 9 + n % 4\n";
  pki_module *m;
  char *cpp = emit_source(src, "plaindiv", "cpp", &m);
  HAS(cpp, "pkc::pymod(i, 4) + pkc::floordiv(i, 2)");
  HAS(cpp, "s += a % 4 + a / 3;");
  HAS(cpp, "(c * a + 1) % 5 + ");
  HAS(cpp, "y.extent(0)) / 7");
  HAS(cpp, "s += pkc::pymod(b, 4);");
  HAS(cpp, "s += pkc::pymod(d, 6);");
  HAS(cpp, "pkc::pymod(e, 8)");
  HAS(cpp, "pkc::pymod(i - 3, 7) / 2 + pkc::abs(i) % 9 + pkc::pymod(n, 4)");
  free(cpp);
  pki_module_free(m);
}

/* An int32 element read into an int local: C++ widens it where the int64_t is
 * declared, no cast written; a call still gets one (pkc::min takes one type). */
static void test_emit_widening_decl(void **state) {
  (void)state;
  static const char src[] = "import pykokkos as pk\n"
                            "@pk.workunit\n"
                            "def k(i: int, idx: pk.View1D[pk.int32], y: pk.View1D[float], n: int):\n"
                            "    j: int = idx[i]\n"
                            "    m: int = min(idx[i], n)\n"
                            "    y[i] = j + m\n";
  pki_module *m;
  char *cpp = emit_source(src, "widen", "cpp", &m);
  HAS(cpp, "const int64_t j = idx(i);");
  HAS(cpp, "static_cast<int64_t>(idx(i))");
  free(cpp);
  pki_module_free(m);
}

/* Emitting again with no change keeps the files' mtimes. */
/* int64's lowest value has no C++ literal (9223372036854775808 does not fit):
 * it is written INT64_MIN, not as a literal g++ warns about (issue 11). */
static void test_emit_int64_min(void **state) {
  (void)state;
  static const char src[] = "import pykokkos as pk\n"
                            "@pk.workunit\n"
                            "def lowest(i: int, A: pk.View1D[pk.int64]):\n"
                            "    A[i] = -9223372036854775808\n"
                            "    A[i] += 9223372036854775807\n";
  pki_module *m;
  char *cpp = emit_source(src, "lowest", "cpp", &m);
  HAS(cpp, "A(i) = INT64_MIN;");
  HAS(cpp, "A(i) += INT64_C(9223372036854775807);");
  assert_null(strstr(cpp, "9223372036854775808"));
  free(cpp);
  pki_module_free(m);
}

/* A View of classtype values (issue 26): the classtype gets an AoS View
 * alias, a proxy with its fields as references and its methods, and an SoA
 * accessor of one View per field; the workunit's functor is a template over
 * the View's type, and the C entry point picks the instantiation from the
 * argument's layout; a function changing its classtype parameter takes any
 * element (a forwarding reference). Kernels without such Views are not
 * templates. */
static void test_emit_class_view(void **state) {
  (void)state;
  static const char src[] = "import pykokkos as pk\n"
                            "@pk.classtype\n"
                            "class P:\n"
                            "    def __init__(self, x: float, n: pk.int32):\n"
                            "        self.x: float = x\n"
                            "        self.n: pk.int32 = n\n"
                            "    @pk.function\n"
                            "    def bump(self):\n"
                            "        self.n += 1\n"
                            "@pk.function\n"
                            "def twice(q: P):\n"
                            "    q.x *= 2.0\n"
                            "@pk.workunit\n"
                            "def k(i: int, p: pk.View1D[P], w: pk.View1D[pk.double]):\n"
                            "    p[i].x += w[i]\n"
                            "    twice(p[i])\n"
                            "    p[i].bump()\n"
                            "@pk.workunit\n"
                            "def plain(i: int, w: pk.View1D[pk.double]):\n"
                            "    w[i] = 1.0\n";
  pki_module *m;
  char *cpp = emit_source(src, "cview", "cpp", &m);
  HAS(cpp, "using P_aos = pkc::View<typename pkc::ptrs<P, R>::type, Kokkos::LayoutRight>;");
  HAS(cpp, "struct P_ref {\n  double &x;\n  int32_t &n;\n");
  HAS(cpp, "struct P_soa {\n  pkc::View<typename pkc::ptrs<double, R>::type, Kokkos::LayoutRight> x;");
  HAS(cpp, "return {x(pkc_i...), n(pkc_i...)};");
  HAS(cpp, "template <class pkc_T_q>\nKOKKOS_FORCEINLINE_FUNCTION void twice(pkc_T_q &&q)");
  HAS(cpp, "template <class pkc_view_p>  // each a C_aos<R> or C_soa<R>");
  HAS(cpp, "  pkc_view_p p;\n");
  HAS(cpp, "p(i).x += w(i);");
  HAS(cpp, "p(i).bump();");
  HAS(cpp, "if (pkc::class_layout(args[0]) == PKC_LAYOUT_SOA) {");
  HAS(cpp, "pkc_cview::k<pkc_cview::P_soa<1>> f{};");
  HAS(cpp, "pkc_cview::k<pkc_cview::P_aos<1>> f{};");
  HAS(cpp, "{\"p\", PKC_PARAM_CLASS_VIEW, 0, 0, 1, PKC_LAYOUT_DEFAULT, PKC_ACCESS_READ | "
           "PKC_ACCESS_WRITE, 0},");
  HAS(cpp, "// @pk.workunit plain (FunctionSty, line 19)\nstruct plain {");
  free(cpp);
  pki_module_free(m);
}

/* Nested classtype and List fields of a View's element (issue 26 item 1):
 * the struct nests and holds a C array; the SoA accessor holds the nested
 * accessor and one View per component; the proxy the nested proxy and a
 * pkc::array_ref; the field table lists the leaves depth first at their C
 * struct offsets; a method writing self.v[d] is not const. */
static void test_emit_class_view_fields(void **state) {
  (void)state;
  static const char src[] = "import pykokkos as pk\n"
                            "from typing import List\n"
                            "@pk.classtype\n"
                            "class V:\n"
                            "    def __init__(self, x: float):\n"
                            "        self.x: float = x\n"
                            "@pk.classtype\n"
                            "class B:\n"
                            "    def __init__(self, x: float):\n"
                            "        self.pos: V = V(x)\n"
                            "        self.f: List[float] = [x, 0.0]\n"
                            "    @pk.function\n"
                            "    def kick(self, d: int):\n"
                            "        self.f[d] += 1.0\n"
                            "@pk.workunit\n"
                            "def k(i: int, b: pk.View1D[B]):\n"
                            "    b[i].pos.x += b[i].f[1]\n"
                            "    b[i].kick(0)\n";
  pki_module *m;
  char *cpp = emit_source(src, "cfields", "cpp", &m);
  HAS(cpp, "struct B {\n  V pos;\n  double f[2];\n");
  HAS(cpp, "this->f[0] = x;\n");
  HAS(cpp, "struct V_ref {\n  double &x;\n");
  HAS(cpp, "struct B_ref {\n  V_ref pos;\n  pkc::array_ref<double, 2> f;\n");
  HAS(cpp, "pkc_v.f[0] = f[0];\n    pkc_v.f[1] = f[1];\n");
  HAS(cpp, "KOKKOS_FORCEINLINE_FUNCTION void kick(int64_t d) {");
  HAS(cpp, "  V_soa<R> pos;\n  pkc::View<typename pkc::ptrs<double, R>::type, "
           "Kokkos::LayoutRight> f[2];\n");
  HAS(cpp, "return {pos(pkc_i...), {{&f[0](pkc_i...), &f[1](pkc_i...)}}};");
  HAS(cpp, "{\"pos.x\", offsetof(B, pos.x), ");
  HAS(cpp, "{\"f[1]\", offsetof(B, f[1]), ");
  HAS(cpp, "pkc::bind_soa_field(v.f[1], arg, 2, B_fields(), ");
  HAS(cpp, "b(i).pos.x += b(i).f[1];");
  free(cpp);
  pki_module_free(m);
}

static void test_emit_unchanged_keeps_mtime(void **state) {
  (void)state;
  char out[300], py[300], err[512] = "", path[400];
  snprintf(out, sizeof out, "%s/same.pk", tmpdir);
  snprintf(py, sizeof py, "%s/same.py", tmpdir);
  pki_module *m = make_module(py);
  pkb_options o = opts(out);
  assert_int_equal(pkb_emit(m, &o, err, sizeof err), 0);
  snprintf(path, sizeof path, "%s/same.cpp", out);
  struct stat s1, s2;
  assert_int_equal(stat(path, &s1), 0);
  usleep(20000);
  assert_int_equal(pkb_emit(m, &o, err, sizeof err), 0);
  assert_int_equal(stat(path, &s2), 0);
  assert_true(s1.st_mtim.tv_sec == s2.st_mtim.tv_sec && s1.st_mtim.tv_nsec == s2.st_mtim.tv_nsec);
  o.line_directives = false;
  assert_int_equal(pkb_emit(m, &o, err, sizeof err), 0);
  char *cpp = slurp(path);
  assert_null(strstr(cpp, "#line"));
  free(cpp);
  pki_module_free(m);
}

/* ------------------------------------------------------------ integration */

static double pyfloordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (double)((a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q);
}

static double pymod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return (double)((r != 0 && ((r < 0) != (b < 0))) ? r + b : r);
}

static void call_kernels(const pkc_module_desc *d) {
  char err[512] = "";
  enum { N = 37 };
  int64_t shape[1] = {N};
  double A[N], Bv[N], C[N], x[N], out[N];
  int64_t v[N];
  float fa[N];
  for (int i = 0; i < N; i++) {
    A[i] = i;
    Bv[i] = 2.0 * i;
    C[i] = 1.0 + i;
    x[i] = 0.5 * i;
    v[i] = i + 1;
    fa[i] = (float)(i % 7);
  }
  /* nstream: A += B + 3 * C */
  DLTensor tA = tensor(A, shape, 1, kDLFloat, 64), tB = tensor(Bv, shape, 1, kDLFloat, 64),
           tC = tensor(C, shape, 1, kDLFloat, 64);
  pkc_value scalar = {.f = 3.0};
  void *args[4] = {&tA, &tB, &tC, &scalar};
  pkc_policy p = range(N);
  assert_int_equal(kernel(d, "nstream")->fn(args, &p, NULL, err, sizeof err), 0);
  d->fence();
  for (int i = 0; i < N; i++)
    assert_float_equal(A[i], i + 2.0 * i + 3.0 * (1.0 + i), 1e-12);
  /* dot over a sub-range */
  DLTensor tx = tensor(x, shape, 1, kDLFloat, 64);
  void *dargs[2] = {&tx, &tB};
  pkc_value r = {0};
  pkc_policy p2 = range(N);
  p2.begin[0] = 3;
  assert_int_equal(kernel(d, "dot")->fn(dargs, &p2, &r, err, sizeof err), 0);
  double want = 0;
  for (int i = 3; i < N; i++)
    want += x[i] * Bv[i];
  assert_float_equal(r.f, want, 1e-9);
  /* exclusive prefix sum */
  DLTensor tv = tensor(v, shape, 1, kDLInt, 64);
  void *sargs[1] = {&tv};
  assert_int_equal(kernel(d, "prefix")->fn(sargs, &p, &r, err, sizeof err), 0);
  assert_int_equal(r.i, (int64_t)N * (N + 1) / 2);
  for (int i = 0; i < N; i++)
    assert_int_equal(v[i], (int64_t)i * (i + 1) / 2);
  /* misc: Python // % ** and loops */
  DLTensor to = tensor(out, shape, 1, kDLFloat, 64);
  pkc_value n = {.i = 5};
  void *margs[2] = {&to, &n};
  assert_int_equal(kernel(d, "misc")->fn(margs, &p, NULL, err, sizeof err), 0);
  d->fence();
  for (int i = 0; i < N; i++) {
    double t = (0 % 3) + (2 % 3) + (4 % 3) - 5.0;
    double q = pyfloordiv(i - 5, 2);
    assert_float_equal(out[i], t + q * q + pymod(i - 5, 3) + 3.141592653589793 + 8.0, 1e-12);
  }
  /* ClassSty functor: LayoutLeft float32 views, a max reduction */
  DLTensor tf = tensor(fa, shape, 1, kDLFloat, 32);
  pkc_value s = {.f = 0.5};
  void *fargs[2] = {&tf, &s};
  assert_int_equal(kernel(d, "scale")->fn(fargs, &p, NULL, err, sizeof err), 0);
  d->fence();
  for (int i = 0; i < N; i++)
    assert_float_equal(fa[i], (float)(i % 7), 1e-6);
  assert_int_equal(kernel(d, "biggest")->fn(fargs, &p, &r, err, sizeof err), 0);
  assert_float_equal(r.f, 6.0, 1e-12);
  /* MDRangePolicy over a 2-D LayoutRight view, sub-box [1,4) x [2,5) */
  double M[5][6] = {{0}};
  int64_t shape2[2] = {5, 6};
  DLTensor tm = tensor(M, shape2, 1, kDLFloat, 64);
  tm.ndim = 2;
  void *m2args[1] = {&tm};
  pkc_policy md = {0};
  md.kind = PKC_POLICY_MDRANGE;
  md.rank = 2;
  md.begin[0] = 1, md.begin[1] = 2, md.end[0] = 4, md.end[1] = 5;
  assert_int_equal(kernel(d, "fill2d")->fn(m2args, &md, NULL, err, sizeof err), 0);
  d->fence();
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 6; j++)
      assert_float_equal(M[i][j], (i >= 1 && i < 4 && j >= 2 && j < 5) ? i * 10 + j : 0.0, 0);
  /* ops: loops, branches, bit operations and builtins */
  bool fl[N];
  double o2[N];
  for (int i = 0; i < N; i++)
    fl[i] = i % 3 == 0;
  DLTensor to2 = tensor(o2, shape, 1, kDLFloat, 64), tfl = tensor(fl, shape, 1, kDLUInt, 8);
  pkc_value nn = {.i = 6}, stp = {.i = -2};
  void *oargs[4] = {&to2, &tfl, &nn, &stp};
  assert_int_equal(kernel(d, "ops")->fn(oargs, &p, NULL, err, sizeof err), 0);
  d->fence();
  for (int64_t i = 0; i < N; i++) {
    double xx = i * 0.5 + 3.0; /* range(6, 0, -2): 3 iterations */
    if (i % 2 == 0)
      xx = -xx;
    else if (i == 1)
      xx = sqrt(xx);
    else
      xx = xx > 1.0 ? xx : 1.5e-7;
    int64_t yy = ((i << 2) >> 1) | (1 ^ (3 & ~i));
    double mn = xx < 1.0 ? xx : 1.0;
    assert_float_equal(o2[i], xx + (double)yy + 2.5 + mn + N, 1e-12);
  }
  int64_t fstrides[2] = {1, 5}; /* Fortran order: not viewable as LayoutRight */
  tm.strides = fstrides;
  assert_int_not_equal(kernel(d, "fill2d")->fn(m2args, &md, NULL, err, sizeof err), 0);
  assert_string_equal(err, "fill2d: argument 'M': expected C-contiguous (LayoutRight) strides, got a "
                           "strided array (a column or block of a View): pass a contiguous "
                           "copy (np.ascontiguousarray, or a View filled by pk.deep_copy)");
}

static void call_errors(const pkc_module_desc *d) {
  char err[512] = "";
  int64_t shape[1] = {4}, shape2[2] = {2, 2}, strides[1] = {2};
  int32_t ints[4] = {0};
  double dbl[8] = {0};
  DLTensor bad = tensor(ints, shape, 1, kDLInt, 32), ok = tensor(dbl, shape, 1, kDLFloat, 64);
  pkc_value scalar = {.f = 1.0};
  void *args[4] = {&bad, &ok, &ok, &scalar};
  pkc_policy p = range(4);
  assert_int_not_equal(kernel(d, "nstream")->fn(args, &p, NULL, err, sizeof err), 0);
  assert_string_equal(err, "nstream: argument 'A': expected a 1-D float64 array, got 1-D int32");
  DLTensor two = tensor(dbl, shape2, 1, kDLFloat, 64);
  two.ndim = 2;
  args[0] = &ok;
  args[2] = &two;
  assert_int_not_equal(kernel(d, "nstream")->fn(args, &p, NULL, err, sizeof err), 0);
  assert_string_equal(err, "nstream: argument 'C': expected a 1-D float64 array, got 2-D float64");
  DLTensor strided = ok;
  strided.strides = strides;
  args[2] = &strided;
  assert_int_not_equal(kernel(d, "nstream")->fn(args, &p, NULL, err, sizeof err), 0);
  assert_string_equal(err, "nstream: argument 'C': expected C-contiguous (LayoutRight) strides, got a "
                           "strided array (a column or block of a View): pass a contiguous "
                           "copy (np.ascontiguousarray, or a View filled by pk.deep_copy)");
  DLTensor gpu = ok;
  gpu.device.device_type = kDLCUDA;
  args[2] = &gpu;
  assert_int_not_equal(kernel(d, "nstream")->fn(args, &p, NULL, err, sizeof err), 0);
  assert_non_null(strstr(err, "nstream: argument 'C': expected an array in the host (cpu)"));
  args[2] = NULL;
  assert_int_not_equal(kernel(d, "nstream")->fn(args, &p, NULL, err, sizeof err), 0);
  assert_string_equal(err, "nstream: argument 'C' is missing (NULL tensor)");
  pkc_policy md = range(4);
  md.kind = PKC_POLICY_MDRANGE;
  args[2] = &ok;
  assert_int_not_equal(kernel(d, "nstream")->fn(args, &md, NULL, err, sizeof err), 0);
  assert_non_null(strstr(err, "nstream: expected a RangePolicy"));
}

static void test_build_openmp_and_run(void **state) {
  (void)state;
  if (!have_kokkos())
    skip();
  char out[300], py[300], err[1024] = "", path[400];
  snprintf(out, sizeof out, "%s/run.pk", tmpdir);
  snprintf(py, sizeof py, "%s/run.py", tmpdir);
  pki_module *m = make_module(py);
  pkb_options o = opts(out);
  setenv("PKC_FAST_BUILD", "0", 1); /* the generated CMake project itself */
  build_warning_free(m, &o, err, sizeof err); /* warning-free with -Wall -Wextra */
  unsetenv("PKC_FAST_BUILD");
  snprintf(path, sizeof path, "%s/build-openmp/CMakeFiles/run_openmp.dir/flags.make", out);
  char *flags = slurp(path);
  assert_non_null(flags);
  assert_non_null(strstr(flags, "-Wall -Wextra"));
  assert_non_null(strstr(flags, "-fvisibility=hidden"));
  assert_non_null(strstr(flags, "-O3") ? flags : strstr(flags, "-O2"));
  free(flags);
  const char *so = pkb_module_path(m->arena, m, &o);
  void *h;
  const pkc_module_desc *d = open_module(so, &h);
  assert_null(dlsym(h, "_ZN3pkc4failEPcmPKcS2_")); /* everything else hidden */
  assert_int_equal(d->abi_version, PKC_ABI_VERSION);
  assert_string_equal(d->backend, "openmp");
  assert_string_equal(d->kokkos_version, "3.4.1");
  assert_string_equal(d->source_path, py);
  assert_int_equal(strlen(d->cache_key), 64);
  assert_int_equal(d->device_type, kDLCPU);
  assert_int_equal(d->nkernels, 8);
  assert_null(d->allocate);
  assert_int_equal(kernel(d, "dot")->params[0].layout, PKC_LAYOUT_RIGHT);
  assert_int_equal(kernel(d, "scale")->params[0].layout, PKC_LAYOUT_LEFT);
  char key[80] = "";
  snprintf(path, sizeof path, "%s/run.openmp.key", out);
  char *keyfile = slurp(path);
  assert_non_null(keyfile);
  assert_memory_equal(keyfile, d->cache_key, 64);
  free(keyfile);
  (void)key;
  assert_int_not_equal(kernel(d, "nstream")->fn(NULL, NULL, NULL, err, sizeof err), 0);
  assert_non_null(strstr(err, "Kokkos is not initialized"));
  assert_int_equal(d->initialize(2, err, sizeof err), 0);
  call_kernels(d);
  call_errors(d);
  d->finalize();
  d->finalize(); /* safe twice */
  /* cache: unchanged -> no work, module untouched */
  struct stat s1, s2;
  assert_int_equal(stat(so, &s1), 0);
  assert_int_equal(pkb_build(m, &o, err, sizeof err), 0);
  assert_int_equal(stat(so, &s2), 0);
  assert_true(s1.st_mtim.tv_nsec == s2.st_mtim.tv_nsec && s1.st_mtim.tv_sec == s2.st_mtim.tv_sec);
  dlclose(h);
  pki_module_free(m);
}

static void test_build_missing_backend(void **state) {
  (void)state;
  if (!have_kokkos())
    skip();
  char out[300], py[300], err[1024] = "";
  snprintf(out, sizeof out, "%s/nocuda.pk", tmpdir);
  snprintf(py, sizeof py, "%s/nocuda.py", tmpdir);
  pki_module *m = make_module(py);
  pkb_options o = opts(out);
  o.backend = "hip";
  setenv("CXX", "c++", 1); /* no hipcc here: let CMake use g++ and reach the check */
  FILE *saved = stderr;
  stderr = fopen("/dev/null", "w");
  int rc = pkb_build(m, &o, err, sizeof err);
  fclose(stderr);
  stderr = saved;
  unsetenv("CXX");
  assert_int_equal(rc, -1);
  /* either the up-front Kokkos check or CMake's configure step says why */
  if (!strstr(err, "built without it")) {
    assert_non_null(strstr(err, "toolchain failure"));
    char log[400];
    snprintf(log, sizeof log, "%s/build-hip/pkc-build.log", out);
    char *text = slurp(log);
    assert_non_null(text);
    assert_non_null(strstr(text, "pkc: backend 'hip' needs a Kokkos built with HIP"));
    free(text);
  }
  pki_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_emit_text),
      cmocka_unit_test(test_emit_int64_min),
      cmocka_unit_test(test_emit_constant_index),
      cmocka_unit_test(test_emit_shared_tables),
      cmocka_unit_test(test_emit_binder),
      cmocka_unit_test(test_emit_plain_div),
      cmocka_unit_test(test_emit_widening_decl),
      cmocka_unit_test(test_emit_class_view),
      cmocka_unit_test(test_emit_class_view_fields),
      cmocka_unit_test(test_emit_unchanged_keeps_mtime),
      cmocka_unit_test(test_build_openmp_and_run),
      cmocka_unit_test(test_build_missing_backend),
  };
  return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
