/*
 * test_emit_dialect.c - the Kokkos backend on the dialect of issue 3, IR built
 * by hand (typed, as pki_check leaves it): a team kernel with scratch, nested
 * parallel_for/reduce and pk.single; an MDRange kernel run in Left order;
 * atomics; a random pool; a classtype with a list and an assert; a workload
 * whose @pk.main dispatches a workunit and a lambda reduction. Built for
 * OpenMP (warning-free), dlopen'ed, run, numbers checked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sys/stat.h>

#define EMIT_TMP_TEMPLATE "/tmp/pkc_test_dialect_XXXXXX"
#include "emit_test_util.h"

static pki_module *M;
static pki_span sp(int line) { return (pki_span){.line = (uint32_t)line, .col = 5}; }
static const pki_type F = {.kind = PKI_F64}, I = {.kind = PKI_I64}, V = {.kind = PKI_VOID};

static pki_expr *var(pki_var *v) {
  pki_expr *e = pki_new_expr(M, PKI_E_VAR, sp(0));
  e->var = v;
  e->type = v->type;
  return e;
}
static pki_expr *li(int64_t x) {
  pki_expr *e = pki_new_expr(M, PKI_E_INT, sp(0));
  e->ival = x;
  e->type = I;
  return e;
}
static pki_expr *lf(double x) {
  pki_expr *e = pki_new_expr(M, PKI_E_FLOAT, sp(0));
  e->fval = x;
  e->type = F;
  return e;
}
static pki_expr *nodev(pki_expr_kind k, pki_type t, int n, va_list ap) {
  pki_expr *e = pki_new_expr_n(M, k, sp(0), n);
  e->type = t;
  for (int i = 0; i < n; i++)
    e->args[i] = va_arg(ap, pki_expr *);
  return e;
}
static pki_expr *node(pki_expr_kind k, pki_type t, int n, ...) {
  va_list ap;
  va_start(ap, n);
  pki_expr *e = nodev(k, t, n, ap);
  va_end(ap);
  return e;
}
static pki_expr *intr(pki_intrinsic id, pki_type t, int n, ...) {
  va_list ap;
  va_start(ap, n);
  pki_expr *e = nodev(PKI_E_INTRINSIC, t, n, ap);
  va_end(ap);
  e->intrinsic = id;
  return e;
}
static pki_expr *bin(pki_op op, pki_expr *l, pki_expr *r) {
  pki_expr *e = node(PKI_E_BINARY, l->type, 2, l, r);
  e->op = op;
  return e;
}
static pki_expr *at(pki_var *v, int n, ...) {
  pki_expr *e = pki_new_expr_n(M, PKI_E_INDEX, sp(0), n + 1);
  e->type = v->type.kind == PKI_ARRAY ? pki_scalar(v->type.elem) : pki_scalar(v->type.elem);
  e->args[0] = var(v);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    e->args[i + 1] = va_arg(ap, pki_expr *);
  va_end(ap);
  return e;
}
static pki_stmt *push(pki_block *b, pki_stmt *s) {
  pki_block_push(M->arena, b, s);
  return s;
}
static pki_stmt *assign(pki_block *b, int line, pki_op op, pki_expr *t, pki_expr *v) {
  pki_stmt *s = pki_new_stmt(M, op ? PKI_S_AUGASSIGN : PKI_S_ASSIGN, sp(line));
  s->op = op;
  s->target = t;
  s->value = v;
  return push(b, s);
}
static pki_var *decl(pki_func *f, pki_block *b, int line, const char *name, pki_type t,
                     pki_expr *v) {
  pki_var *x = pki_new_var(M, name, PKI_VAR_LOCAL, t, sp(line));
  pki_func_add_local(M, f, x);
  pki_stmt *s = pki_new_stmt(M, PKI_S_DECL, sp(line));
  s->var = x;
  s->value = v;
  push(b, s);
  return x;
}
static pki_var *param(pki_func *f, const char *name, pki_type t, unsigned access) {
  pki_var *v = pki_new_var(M, name, PKI_VAR_PARAM, t, sp(f->span.line));
  v->access = access;
  pki_func_add_param(M, f, v);
  return v;
}
static pki_var *index_var(pki_func *f, const char *name, pki_type t) {
  pki_var *v = pki_new_var(M, name, PKI_VAR_INDEX, t, sp(f->span.line));
  pki_func_add_index(M, f, v);
  return v;
}
static pki_func *workunit(const char *name, int line, pki_pattern pat, pki_policy pol) {
  pki_entity *e = pki_new_entity(M, PKI_ENT_WORKUNIT, name, sp(line));
  pki_func *f = pki_new_func(M, name, sp(line));
  f->is_workunit = true;
  f->pattern = pat;
  f->policy = pol;
  pki_entity_add_func(M, e, f);
  pki_module_add_entity(M, e);
  return f;
}
static pki_func *closure(pki_func *parent, const char *name, pki_pattern pat) {
  pki_func *f = pki_new_func(M, name, sp(0));
  f->is_closure = true;
  f->pattern = pat;
  pki_func_add_closure(M, parent, f);
  return f;
}
static pki_var *acc_of(pki_func *f, const char *name, pki_type t) {
  f->acc = pki_new_var(M, name, PKI_VAR_ACC, t, sp(f->span.line));
  return f->acc;
}
static pki_type view(pki_kind k, int rank) { return pki_view(k, rank, PKI_LAYOUT_RIGHT); }
enum { RW = PKI_ACCESS_READ | PKI_ACCESS_WRITE, RO = PKI_ACCESS_READ };

/* def yAx(m: pk.TeamMember, acc: pk.Acc[float], M: int, y, A, x):      (line 3)
 *   e: int = m.league_rank()                                             4
 *   s: pk.ScratchView1D[float] = pk.ScratchView1D(m.team_scratch(0), M)  5
 *   def load(j): s[j] = x[j]                                             6-7
 *   pk.parallel_for(pk.TeamThreadRange(m, M), load)                      8
 *   m.team_barrier()                                                     9
 *   def row(j, inner: pk.Acc[float]): inner += A[e][j] * s[j]            10-11
 *   t: float = pk.parallel_reduce(pk.TeamThreadRange(m, M), row)         12
 *   def once(): nonlocal acc; acc += y[e] * t                            13-14
 *   pk.single(pk.PerTeam(m), once)                                       15 */
static void add_yax(void) {
  pki_func *f = workunit("yAx", 3, PKI_PATTERN_REDUCE, PKI_POLICY_TEAM);
  pki_var *m = index_var(f, "m", (pki_type){.kind = PKI_TEAM_MEMBER});
  pki_var *acc = acc_of(f, "acc", F);
  pki_var *n = param(f, "M", I, RO), *y = param(f, "y", view(PKI_F64, 1), RO),
          *A = param(f, "A", view(PKI_F64, 2), RO), *x = param(f, "x", view(PKI_F64, 1), RO);
  pki_var *e = decl(f, &f->body, 4, "e", I, intr(PKI_INTRINSIC_LEAGUE_RANK, I, 1, var(m)));
  pki_type st = view(PKI_F64, 1);
  st.space = PKI_SPACE_SCRATCH;
  pki_var *s = decl(f, &f->body, 5, "s", st,
                    intr(PKI_INTRINSIC_SCRATCH_VIEW, st, 2,
                         intr(PKI_INTRINSIC_TEAM_SCRATCH, V, 2, var(m), li(0)), var(n)));
  pki_func *load = closure(f, "load", PKI_PATTERN_FOR);
  pki_var *j = index_var(load, "j", I);
  assign(&load->body, 7, 0, at(s, 1, var(j)), at(x, 1, var(j)));
  pki_stmt *n1 = push(&f->body, pki_new_stmt(M, PKI_S_NESTED, sp(8)));
  n1->range = PKI_RANGE_TEAM_THREAD;
  n1->closure = load;
  n1->nargs = 3;
  n1->args = pki_alloc(M->arena, 3 * sizeof(pki_expr *));
  n1->args[0] = var(m), n1->args[1] = li(0), n1->args[2] = var(n);
  pki_stmt *bar = push(&f->body, pki_new_stmt(M, PKI_S_EXPR, sp(9)));
  bar->value = intr(PKI_INTRINSIC_TEAM_BARRIER, V, 1, var(m));
  pki_func *row = closure(f, "row", PKI_PATTERN_REDUCE);
  pki_var *j2 = index_var(row, "j", I);
  pki_var *inner = acc_of(row, "inner", F);
  assign(&row->body, 11, PKI_OP_ADD, var(inner),
         bin(PKI_OP_MUL, at(A, 2, var(e), var(j2)), at(s, 1, var(j2))));
  pki_var *t = pki_new_var(M, "t", PKI_VAR_LOCAL, F, sp(12)); /* declared by the dispatch */
  pki_func_add_local(M, f, t);
  pki_stmt *n2 = push(&f->body, pki_new_stmt(M, PKI_S_NESTED, sp(12)));
  n2->range = PKI_RANGE_TEAM_THREAD;
  n2->pattern = PKI_PATTERN_REDUCE;
  n2->closure = row;
  n2->target = var(t);
  n2->nargs = 3;
  n2->args = pki_alloc(M->arena, 3 * sizeof(pki_expr *));
  n2->args[0] = var(m), n2->args[1] = li(0), n2->args[2] = var(n);
  pki_func *once = closure(f, "once", PKI_PATTERN_FOR);
  assign(&once->body, 14, PKI_OP_ADD, var(acc), bin(PKI_OP_MUL, at(y, 1, var(e)), var(t)));
  pki_stmt *sg = push(&f->body, pki_new_stmt(M, PKI_S_SINGLE, sp(15)));
  sg->range = PKI_RANGE_PER_TEAM;
  sg->closure = once;
  sg->nargs = 1;
  sg->args = pki_alloc(M->arena, sizeof(pki_expr *));
  sg->args[0] = var(m);
}

/* def grid(i, j, G): G[i][j] = float(i * 100 + j)   (MDRange, line 20) */
static void add_grid(void) {
  pki_func *f = workunit("grid", 20, PKI_PATTERN_FOR, PKI_POLICY_MDRANGE);
  pki_var *i = index_var(f, "i", I), *j = index_var(f, "j", I);
  pki_var *G = param(f, "G", view(PKI_F64, 2), PKI_ACCESS_WRITE);
  assign(&f->body, 21, 0, at(G, 2, var(i), var(j)),
         pki_cast(M, bin(PKI_OP_ADD, bin(PKI_OP_MUL, var(i), li(100)), var(j)), F));
}

/* def hist(i, data: View1D[int32], h: View1D[int32], total: View1D[int64]):  (line 25)
 *   pk.atomic_increment(h, [data[i] % 4])                                    26
 *   old: int = pk.atomic_fetch_add(total, [0], 2)                            27
 *   pk.atomic_fetch_max(total, [1], old)                                     28 */
static void add_hist(void) {
  pki_func *f = workunit("hist", 25, PKI_PATTERN_FOR, PKI_POLICY_RANGE);
  pki_var *i = index_var(f, "i", I);
  pki_type i32 = pki_scalar(PKI_I32);
  pki_var *data = param(f, "data", view(PKI_I32, 1), RO), *h = param(f, "h", view(PKI_I32, 1), RW),
          *tot = param(f, "total", view(PKI_I64, 1), RW);
  pki_stmt *s = push(&f->body, pki_new_stmt(M, PKI_S_EXPR, sp(26)));
  pki_expr *k = bin(PKI_OP_MOD, pki_cast(M, at(data, 1, var(i)), I), li(4));
  s->value = intr(PKI_INTRINSIC_ATOMIC_INCREMENT, V, 2, var(h), k);
  pki_var *old = decl(f, &f->body, 27, "old", I,
                      intr(PKI_INTRINSIC_ATOMIC_FETCH_ADD, I, 3, var(tot), li(0), li(2)));
  s = push(&f->body, pki_new_stmt(M, PKI_S_EXPR, sp(28)));
  s->value = intr(PKI_INTRINSIC_ATOMIC_FETCH_MAX, I, 3, var(tot), li(1), var(old));
  (void)i32;
}

/* def rnd(i, acc, pool: pk.Random_XorShift64_Pool):   (line 30)
 *   state = pool.get_state(); x: float = state.drand(); pool.free_state(state); acc += x */
static void add_random(void) {
  pki_func *f = workunit("rnd", 30, PKI_PATTERN_REDUCE, PKI_POLICY_RANGE);
  index_var(f, "i", I);
  pki_var *acc = acc_of(f, "acc", F);
  pki_var *pool = param(f, "pool", (pki_type){.kind = PKI_POOL, .rank = 64}, RO);
  pki_type rs = {.kind = PKI_RAND_STATE, .rank = 64};
  pki_var *st = decl(f, &f->body, 31, "state", rs, intr(PKI_INTRINSIC_POOL_GET_STATE, rs, 1, var(pool)));
  pki_var *x = decl(f, &f->body, 32, "x", F, intr(PKI_INTRINSIC_RAND_DRAND, F, 1, var(st)));
  pki_stmt *s = push(&f->body, pki_new_stmt(M, PKI_S_EXPR, sp(33)));
  s->value = intr(PKI_INTRINSIC_POOL_FREE_STATE, V, 2, var(pool), var(st));
  assign(&f->body, 34, PKI_OP_ADD, var(acc), var(x));
}

/* @pk.classtype class Vec3: __init__(self, x, y, z); def dot(self, o: Vec3) -> float (40-46)
 * def geo(i, out):                                                          (line 48)
 *   assert i >= 0, "negative index"                                         49
 *   v = Vec3(float(i), 1.0, 2.0); w = Vec3(1.0, 2.0, 3.0)                    50-51
 *   xs: List[float] = [0.5, 1.5, 2.5]                                       52
 *   out[i] = v.dot(w) + v.x + xs[1]; row = out[0:2]; out[i] += row[0] * 0.0 53-55 */
static void add_classtype(void) {
  pki_entity *c = pki_new_entity(M, PKI_ENT_CLASSTYPE, "Vec3", sp(40));
  pki_var *fx = pki_new_var(M, "x", PKI_VAR_MEMBER, F, sp(41)),
          *fy = pki_new_var(M, "y", PKI_VAR_MEMBER, F, sp(42)),
          *fz = pki_new_var(M, "z", PKI_VAR_MEMBER, F, sp(43));
  pki_entity_add_member(M, c, fx);
  pki_entity_add_member(M, c, fy);
  pki_entity_add_member(M, c, fz);
  pki_type VT = pki_class_type(c);
  pki_func *ctor = pki_new_func(M, "__init__", sp(41));
  ctor->is_ctor = ctor->is_method = true;
  pki_var *px = param(ctor, "x", F, RO), *py = param(ctor, "y", F, RO), *pz = param(ctor, "z", F, RO);
  pki_var *fs[3] = {fx, fy, fz}, *ps[3] = {px, py, pz};
  for (int k = 0; k < 3; k++) {
    pki_stmt *d = push(&ctor->body, pki_new_stmt(M, PKI_S_DECL, sp(42 + k)));
    d->var = fs[k];
    d->value = var(ps[k]);
  }
  pki_entity_add_func(M, c, ctor);
  pki_func *dot = pki_new_func(M, "dot", sp(45));
  dot->is_method = true;
  dot->ret = F;
  pki_var *o = param(dot, "o", VT, RO);
  pki_stmt *r = push(&dot->body, pki_new_stmt(M, PKI_S_RETURN, sp(46)));
  pki_expr *fld[3];
  for (int k = 0; k < 3; k++) {
    fld[k] = node(PKI_E_FIELD, F, 1, var(o));
    fld[k]->str = fs[k]->name;
    fld[k]->var = fs[k];
  }
  r->value = bin(PKI_OP_ADD, bin(PKI_OP_ADD, bin(PKI_OP_MUL, var(fx), fld[0]),
                                 bin(PKI_OP_MUL, var(fy), fld[1])),
                 bin(PKI_OP_MUL, var(fz), fld[2]));
  pki_entity_add_func(M, c, dot);
  pki_module_add_entity(M, c);

  pki_func *f = workunit("geo", 48, PKI_PATTERN_FOR, PKI_POLICY_RANGE);
  pki_var *i = index_var(f, "i", I);
  pki_var *out = param(f, "out", view(PKI_F64, 1), RW);
  pki_stmt *as = push(&f->body, pki_new_stmt(M, PKI_S_ASSERT, sp(49)));
  as->cond = node(PKI_E_COMPARE, pki_bool_type, 2, var(i), li(0));
  as->cond->op = PKI_OP_GE;
  as->nargs = 1;
  as->args = pki_alloc(M->arena, sizeof(pki_expr *));
  as->args[0] = pki_new_expr(M, PKI_E_STR, sp(49));
  as->args[0]->str = "negative index";
  pki_var *v = decl(f, &f->body, 50, "v", VT,
                    node(PKI_E_CONSTRUCT, VT, 3, pki_cast(M, var(i), F), lf(1.0), lf(2.0)));
  pki_var *w = decl(f, &f->body, 51, "w", VT, node(PKI_E_CONSTRUCT, VT, 3, lf(1.0), lf(2.0), lf(3.0)));
  pki_type LT = pki_array_type(PKI_F64, 3);
  pki_var *xs = decl(f, &f->body, 52, "xs", LT, node(PKI_E_LIST, LT, 3, lf(0.5), lf(1.5), lf(2.5)));
  pki_expr *call = node(PKI_E_CALL, F, 2, var(v), var(w));
  call->func = dot;
  pki_expr *vx = node(PKI_E_FIELD, F, 1, var(v));
  vx->str = "x";
  vx->var = fx;
  pki_expr *x1 = node(PKI_E_INDEX, F, 2, var(xs), li(1));
  assign(&f->body, 53, 0, at(out, 1, var(i)), bin(PKI_OP_ADD, bin(PKI_OP_ADD, call, vx), x1));
  pki_type sv = pki_view(PKI_F64, 1, PKI_LAYOUT_STRIDE);
  pki_expr *slice = node(PKI_E_SLICE, V, 2, li(0), li(2));
  pki_var *row = decl(f, &f->body, 54, "row", sv, intr(PKI_INTRINSIC_SUBVIEW, sv, 2, var(out), slice));
  assign(&f->body, 55, PKI_OP_ADD, at(out, 1, var(i)), bin(PKI_OP_MUL, at(row, 1, li(0)), lf(0.0)));
}

/* @pk.workload class Work: A: View1D[float], n: int, total: float, secs: float  (line 60)
 *   @pk.workunit def fill(self, i): self.A[i] = float(i)                        61-62
 *   @pk.main def run(self):                                                     63
 *     timer = pk.Timer()                                                        64
 *     pk.parallel_for("fill", self.n, self.fill)                                65
 *     self.total = pk.parallel_reduce(self.n, lambda i, acc: acc + self.A[i])   66
 *     pk.fence(); self.secs = timer.seconds()                                   67-68 */
static void add_workload(void) {
  pki_entity *e = pki_new_entity(M, PKI_ENT_WORKLOAD, "Work", sp(60));
  pki_var *A = pki_new_var(M, "A", PKI_VAR_MEMBER, view(PKI_F64, 1), sp(60));
  pki_var *n = pki_new_var(M, "n", PKI_VAR_MEMBER, I, sp(60));
  pki_var *total = pki_new_var(M, "total", PKI_VAR_MEMBER, F, sp(60));
  pki_var *secs = pki_new_var(M, "secs", PKI_VAR_MEMBER, F, sp(60));
  A->access = RW, n->access = RO, total->access = PKI_ACCESS_WRITE, secs->access = PKI_ACCESS_WRITE;
  pki_entity_add_member(M, e, A);
  pki_entity_add_member(M, e, n);
  pki_entity_add_member(M, e, total);
  pki_entity_add_member(M, e, secs);
  pki_func *fill = pki_new_func(M, "fill", sp(61));
  fill->is_workunit = true;
  pki_var *i = index_var(fill, "i", I);
  assign(&fill->body, 62, 0, at(A, 1, var(i)), pki_cast(M, var(i), F));
  pki_entity_add_func(M, e, fill);
  pki_func *run = pki_new_func(M, "run", sp(63));
  run->is_main = true;
  pki_entity_add_func(M, e, run);
  pki_type TT = {.kind = PKI_TIMER};
  pki_var *timer = decl(run, &run->body, 64, "timer", TT, intr(PKI_INTRINSIC_TIMER_NEW, TT, 0));
  pki_stmt *d1 = push(&run->body, pki_new_stmt(M, PKI_S_DISPATCH, sp(65)));
  d1->range = PKI_POLICY_RANGE;
  d1->closure = fill;
  d1->str = "fill";
  d1->nargs = 1;
  d1->args = pki_alloc(M->arena, sizeof(pki_expr *));
  d1->args[0] = var(n);
  pki_func *lam = closure(run, "lambda", PKI_PATTERN_REDUCE);
  pki_var *li_ = index_var(lam, "i", I);
  pki_var *acc = acc_of(lam, "acc", F);
  assign(&lam->body, 66, PKI_OP_ADD, var(acc), at(A, 1, var(li_)));
  pki_stmt *d2 = push(&run->body, pki_new_stmt(M, PKI_S_DISPATCH, sp(66)));
  d2->range = PKI_POLICY_RANGE;
  d2->pattern = PKI_PATTERN_REDUCE;
  d2->closure = lam;
  d2->target = var(total);
  d2->nargs = 2;
  d2->args = pki_alloc(M->arena, 2 * sizeof(pki_expr *));
  d2->args[0] = li(0), d2->args[1] = var(n);
  pki_stmt *fe = push(&run->body, pki_new_stmt(M, PKI_S_EXPR, sp(67)));
  fe->value = intr(PKI_INTRINSIC_FENCE, V, 0);
  assign(&run->body, 68, 0, var(secs), intr(PKI_INTRINSIC_TIMER_SECONDS, F, 1, var(timer)));
  pki_module_add_entity(M, e);
}

static const char *SRC = "import pykokkos as pk\n# (test source: IR is built by hand)\n";

static pki_module *make_module(const char *abspath) {
  M = pki_module_new(abspath, abspath, SRC, strlen(SRC));
  add_yax();
  add_grid();
  add_hist();
  add_random();
  add_classtype();
  add_workload();
  pki_record_uses(M); /* what pki_check leaves for backends */
  return M;
}

static void test_dialect_text(void **state) {
  (void)state;
  char out[300], py[300], err[512] = "", path[400];
  snprintf(out, sizeof out, "%s/txt.pk", tmpdir);
  snprintf(py, sizeof py, "%s/txt.py", tmpdir);
  pki_module *m = make_module(py);
  pkb_options o = opts(out);
  o.line_directives = false;
  assert_int_equal(pkb_emit(m, &o, err, sizeof err), 0);
  snprintf(path, sizeof path, "%s/txt.cpp", out);
  char *cpp = slurp(path);
  assert_non_null(cpp);
  HAS(cpp, "KOKKOS_FORCEINLINE_FUNCTION void operator()(const yAx_tag &, const pkc::TeamMember &m, double &acc) const {");
  HAS(cpp, "int64_t e = static_cast<int64_t>(m.league_rank());");
  HAS(cpp, "pkc::ScratchView<double *> s(m.team_scratch(0), M);");
  HAS(cpp, "Kokkos::parallel_for(Kokkos::TeamThreadRange(m, M), [&](const int64_t j) {\n      s(j) = x(j);\n    });");
  HAS(cpp, "m.team_barrier();");
  HAS(cpp, "double t = 0;\n    pkc::team_thread_reduce(m, 0, M, [&](const int64_t j, double &inner) {");
  HAS(cpp, "}, t);");
  HAS(cpp, "Kokkos::single(Kokkos::PerTeam(m), [&]() {\n      acc += y(e) * t;\n    });");
  HAS(cpp, "Kokkos::parallel_reduce(kernel, pkc::team_policy<pkc_txt::yAx::yAx_tag>(*policy), f, value);");
  HAS(cpp, "uses team scratch level 0 but the policy sets no scratch size; call set_scratch_size");
  /* the file names no iteration order: only the default one is compiled */
  HAS(cpp, "pkc::MDRangePolicy<2, pkc_txt::grid::grid_tag>(");
  assert_null(strstr(cpp, "Kokkos::Iterate::Left"));
  HAS(cpp, "pkc::atomic_increment(&h(pkc::pymod(static_cast<int64_t>(data(i)), 4)));");
  HAS(cpp, "int64_t old = pkc::atomic_fetch_add(&total(0), 2);");
  HAS(cpp, "auto state = pool.get_state();");
  HAS(cpp, "double x = state.drand();");
  HAS(cpp, "pool.free_state(state);");
  HAS(cpp, "pkc::Pool64 pool;");
  HAS(cpp, "if (!pkc::bind_pool(f.pool, args[0], kernel, \"pool\", err, errlen)) return 1;");
  HAS(cpp, "{\"pool\", PKC_PARAM_POOL, 0, 0, 64, PKC_LAYOUT_DEFAULT, PKC_ACCESS_READ, 0},");
  HAS(cpp, "struct Vec3 {\n  double x;\n  double y;\n  double z;\n\n  KOKKOS_DEFAULTED_FUNCTION Vec3() = default;");
  HAS(cpp, "KOKKOS_FORCEINLINE_FUNCTION Vec3(double x, double y, double z) {\n    this->x = x;");
  HAS(cpp, "KOKKOS_FORCEINLINE_FUNCTION double dot(Vec3 o) const {\n    return this->x * o.x + this->y * o.y + this->z * o.z;");
  HAS(cpp, "if (!(i >= 0)) {\n      PKC_PRINTF(\"%s:%d: assertion failed: %s\\n\", ");
  HAS(cpp, "Kokkos::abort(\"pkc assertion failed\");");
  HAS(cpp, "Vec3 v = Vec3(static_cast<double>(i), 1.0, 2.0);");
  HAS(cpp, "double xs[3] = {0.5, 1.5, 2.5};");
  HAS(cpp, "out(i) = v.dot(w) + v.x + xs[1];");
  HAS(cpp, "auto row = Kokkos::subview(out, pkc::range(0, 2));");
  HAS(cpp, "inline void Work__run(Work &self) {");
  HAS(cpp, "Kokkos::Timer timer;");
  HAS(cpp, "Kokkos::parallel_for(\"fill\", pkc::RangePolicy<Work::fill_tag>(0, self.n), self);");
  HAS(cpp, "const auto A = self.A;");
  HAS(cpp, "Kokkos::parallel_reduce(\"lambda\", pkc::LambdaRange(0, self.n), KOKKOS_LAMBDA(const int64_t i, double &acc) {\n      acc += A(i);\n    }, self.total);");
  HAS(cpp, "self.secs = timer.seconds();");
  HAS(cpp, "pkc::store_result(static_cast<pkc_value *>(args[2]), f.total);");
  HAS(cpp, "{\"run\", \"Work\", PKC_PATTERN_MAIN, PKC_POLICY_RANGE, PKC_REDUCER_SUM, 4, ");
  HAS(cpp, "pkc::pool_create,");
  free(cpp);
  pki_module_free(m);
}

static void run_team(const pkc_module_desc *d) {
  enum { R = 13, C = 7 };
  char err[512] = "";
  double A[R][C], y[R], x[C], want = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      A[i][j] = i + 0.5 * j;
  for (int i = 0; i < R; i++)
    y[i] = 1.0 + i;
  for (int j = 0; j < C; j++)
    x[j] = 2.0 - j;
  for (int i = 0; i < R; i++) {
    double t = 0;
    for (int j = 0; j < C; j++)
      t += A[i][j] * x[j];
    want += y[i] * t;
  }
  int64_t sy[1] = {R}, sA[2] = {R, C}, sx[1] = {C};
  DLTensor ty = tensor(y, sy, 1, kDLFloat, 64), tA = tensor(A, sA, 2, kDLFloat, 64),
           tx = tensor(x, sx, 1, kDLFloat, 64);
  pkc_value n = {.i = C};
  void *args[4] = {&n, &ty, &tA, &tx};
  pkc_policy p = {0};
  p.kind = PKC_POLICY_TEAM;
  p.league_size = R;
  pkc_value r = {0};
  assert_int_not_equal(kernel(d, "yAx")->fn(args, &p, &r, err, sizeof err), 0);
  assert_string_equal(err, "yAx: uses team scratch level 0 but the policy sets no scratch "
                           "size; call set_scratch_size");
  p.scratch_team[0] = C * sizeof(double);
  for (int ts = 0; ts <= 2; ts++) { /* AUTO, then 1 and 2 threads per team */
    p.team_size = ts;
    r.f = -1;
    assert_int_equal(kernel(d, "yAx")->fn(args, &p, &r, err, sizeof err), 0);
    assert_float_equal(r.f, want, 1e-9);
  }
}

static void run_others(const pkc_module_desc *d) {
  char err[512] = "";
  /* MDRange in Left order over a sub-box */
  double G[4][5] = {{0}};
  int64_t sG[2] = {4, 5};
  DLTensor tG = tensor(G, sG, 2, kDLFloat, 64);
  void *gargs[1] = {&tG};
  pkc_policy md = {0};
  md.kind = PKC_POLICY_MDRANGE;
  md.rank = 2;
  md.begin[0] = 1, md.end[0] = 4, md.end[1] = 5, md.iterate = 2;
  assert_int_equal(kernel(d, "grid")->fn(gargs, &md, NULL, err, sizeof err), 0);
  d->fence();
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      assert_float_equal(G[i][j], i >= 1 ? i * 100 + j : 0.0, 0);
  /* atomic histogram */
  enum { N = 1000 };
  int32_t data[N], h[4] = {0};
  int64_t tot[2] = {0, 0};
  for (int i = 0; i < N; i++)
    data[i] = (i * 7) % 13;
  int64_t sN[1] = {N}, s4[1] = {4}, s2[1] = {2};
  DLTensor td = tensor(data, sN, 1, kDLInt, 32), th = tensor(h, s4, 1, kDLInt, 32),
           tt = tensor(tot, s2, 1, kDLInt, 64);
  void *hargs[3] = {&td, &th, &tt};
  pkc_policy p = range(N);
  assert_int_equal(kernel(d, "hist")->fn(hargs, &p, NULL, err, sizeof err), 0);
  d->fence();
  int want[4] = {0};
  for (int i = 0; i < N; i++)
    want[data[i] % 4]++;
  for (int k = 0; k < 4; k++)
    assert_int_equal(h[k], want[k]);
  assert_int_equal(tot[0], 2 * N);
  assert_int_equal(tot[1], 2 * (N - 1));
  /* random pool: mean of drand() */
  assert_non_null(d->pool_create);
  void *pool = d->pool_create(64, 12345, err, sizeof err);
  assert_non_null(pool);
  pkc_value pv = {.u = (uint64_t)(uintptr_t)pool}, r = {0};
  void *rargs[1] = {&pv};
  pkc_policy pr = range(20000);
  assert_int_equal(kernel(d, "rnd")->fn(rargs, &pr, &r, err, sizeof err), 0);
  double mean = r.f / 20000;
  assert_true(mean > 0.45 && mean < 0.55);
  assert_int_equal(kernel(d, "rnd")->params[0].kind, PKC_PARAM_POOL);
  d->pool_destroy(64, pool);
  pkc_value none = {0};
  rargs[0] = &none;
  assert_int_not_equal(kernel(d, "rnd")->fn(rargs, &pr, &r, err, sizeof err), 0);
  assert_string_equal(err, "rnd: argument 'pool' is missing (no random pool)");
  /* classtype, list, subview, assert (passing) */
  double o[9];
  int64_t s9[1] = {9};
  DLTensor to = tensor(o, s9, 1, kDLFloat, 64);
  void *cargs[1] = {&to};
  pkc_policy p9 = range(9);
  assert_int_equal(kernel(d, "geo")->fn(cargs, &p9, NULL, err, sizeof err), 0);
  d->fence();
  for (int i = 0; i < 9; i++)
    assert_float_equal(o[i], (i * 1.0 + 2.0 + 6.0) + i + 1.5, 1e-12);
  /* workload main: dispatch + lambda reduce; written scalars come back */
  enum { W = 50 };
  double A[W];
  int64_t sW[1] = {W};
  DLTensor tA = tensor(A, sW, 1, kDLFloat, 64);
  pkc_value n = {.i = W}, total = {.f = -1}, secs = {.f = -1};
  void *wargs[4] = {&tA, &n, &total, &secs};
  const pkc_kernel_desc *run = kernel(d, "run");
  assert_int_equal(run->pattern, PKC_PATTERN_MAIN);
  assert_string_equal(run->entity, "Work");
  assert_int_equal(run->fn(wargs, NULL, NULL, err, sizeof err), 0);
  assert_float_equal(total.f, W * (W - 1) / 2.0, 1e-9);
  assert_true(secs.f >= 0 && secs.f < 60);
  assert_float_equal(A[W - 1], W - 1, 0);
}

static void test_dialect_build_and_run(void **state) {
  (void)state;
  if (!have_kokkos())
    skip();
  char out[300], py[300], err[2048] = "";
  snprintf(out, sizeof out, "%s/dia.pk", tmpdir);
  snprintf(py, sizeof py, "%s/dia.py", tmpdir);
  pki_module *m = make_module(py);
  pkb_options o = opts(out);
  build_warning_free(m, &o, err, sizeof err);
  void *h;
  const pkc_module_desc *d = open_module(pkb_module_path(m->arena, m, &o), &h);
  assert_int_equal(d->initialize(2, err, sizeof err), 0);
  run_team(d);
  run_others(d);
  d->finalize();
  dlclose(h);
  pki_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dialect_text),
      cmocka_unit_test(test_dialect_build_and_run),
  };
  return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
