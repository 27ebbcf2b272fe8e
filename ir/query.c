/*
 * query.c - questions passes and backends ask of checked IR.
 */
#include "ir.h"

#include <string.h>


typedef struct effects_q {
  bool hit;
} effects_q;

static void effects_expr(pki_visitor *v, const pki_expr *e) {
  effects_q *q = v->data;
  if (e->kind == PKI_E_CALL || e->kind == PKI_E_CONSTRUCT)
    q->hit = true; /* a function may draw, count or store */
  if (e->kind == PKI_E_INTRINSIC &&
      ((e->intrinsic >= PKI_INTRINSIC_ATOMIC_FETCH_ADD &&
        e->intrinsic <= PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE) ||
       (e->intrinsic >= PKI_INTRINSIC_POOL_GET_STATE && e->intrinsic <= PKI_INTRINSIC_RAND_NORMAL)))
    q->hit = true;
}

bool pki_expr_has_effects(const pki_expr *e) {
  effects_q q = {0};
  pki_visitor v = {.expr = effects_expr, .data = &q};
  if (e)
    pki_visit_expr(&v, e);
  return q.hit;
}

typedef struct scratch_q {
  int level;
  bool thread, hit, unknown; /* unknown: a level not known before the launch */
  int n;                     /* uses at level */
} scratch_q;

static void scratch_expr(pki_visitor *v, const pki_expr *e) {
  scratch_q *q = v->data;
  pki_intrinsic want = q->thread ? PKI_INTRINSIC_THREAD_SCRATCH : PKI_INTRINSIC_TEAM_SCRATCH;
  if (e->kind == PKI_E_INTRINSIC && e->intrinsic == want && e->nargs >= 2) {
    const pki_expr *l = e->args[1];
    l = pki_uncast(l);
    if (l->kind != PKI_E_INT || l->ival == q->level) {
      q->hit = true;
      q->n++;
      q->unknown |= l->kind != PKI_E_INT;
    }
  }
}

int pki_scratch_use_count(const pki_block *b, int level, bool thread) {
  scratch_q q = {.level = level, .thread = thread};
  pki_visitor v = {.expr = scratch_expr, .closures = true, .data = &q};
  pki_visit_block(&v, b);
  return q.unknown ? -1 : q.n;
}

bool pki_uses_scratch(const pki_block *b, int level, bool thread) {
  scratch_q q = {.level = level, .thread = thread};
  pki_visitor v = {.expr = scratch_expr, .closures = true, .data = &q};
  pki_visit_block(&v, b);
  return q.hit;
}

typedef struct written_q {
  const pki_var *p;
  int depth; /* calls followed so far (recursion is rejected by pki_check) */
  bool hit;
} written_q;

static bool param_written(const pki_func *f, const pki_var *p, int depth);

static void written_stmt(pki_visitor *v, const pki_stmt *s) {
  written_q *q = v->data;
  const pki_expr *t = s->target;
  if ((s->kind == PKI_S_ASSIGN || s->kind == PKI_S_AUGASSIGN) && t) {
    while (t && (t->kind == PKI_E_FIELD || t->kind == PKI_E_INDEX) && t->nargs > 0)
      t = t->args[0];
    if (t && t->kind == PKI_E_VAR && t->var == q->p)
      q->hit = true;
  }
}

/* The variable a place is rooted at: p for p, p.pos.x, p.v[k] (NULL: none). */
static const pki_var *place_root(const pki_expr *t) {
  while (t && (t->kind == PKI_E_FIELD || t->kind == PKI_E_INDEX) && t->nargs > 0 && t->args[0])
    t = t->args[0];
  return t && t->kind == PKI_E_VAR ? t->var : NULL;
}

static bool writes_self(const pki_func *f, int depth);

/* a is a classtype value (its type, or its variable's or field's declared
 * type where a body is not checked yet). */
static bool class_typed(const pki_expr *a) {
  return a->type.kind == PKI_CLASS || (a->var && a->var->type.kind == PKI_CLASS);
}

/* Whether call e changes its argument i: a method's receiver (i 0) when the
 * method changes self, else the parameter the argument binds to. */
static bool call_changes_arg(const pki_expr *e, int i, int depth) {
  const pki_func *g = e->func;
  bool receiver = g->is_method && i == 0;
  int k = receiver ? -1 : i - (g->is_method ? 1 : 0);
  return receiver ? writes_self(g, depth)
                  : (k >= 0 && k < g->nparams && param_written(g, g->params[k], depth));
}

static void written_expr(pki_visitor *v, const pki_expr *e) {
  written_q *q = v->data;
  /* p.method(...) of a method that assigns fields, or p passed on to a
   * function that changes its parameter; also p.pos.method(...) and p.pos
   * passed on (a classtype field of p) */
  if (e->kind != PKI_E_CALL || !e->func)
    return;
  for (int i = 0; i < e->nargs; i++) {
    const pki_expr *a = e->args[i];
    if (!a || place_root(a) != q->p || (a->kind != PKI_E_VAR && !class_typed(a)))
      continue;
    if (call_changes_arg(e, i, q->depth + 1))
      q->hit = true;
  }
}

static bool param_written(const pki_func *f, const pki_var *p, int depth) {
  written_q q = {p, depth, false};
  pki_visitor v = {.stmt = written_stmt, .expr = written_expr, .data = &q};
  if (depth > 32)
    return false;
  pki_visit_func(&v, f);
  return q.hit;
}

bool pki_param_written(const pki_func *f, const pki_var *p) { return param_written(f, p, 0); }

bool pki_call_changes_arg(const pki_expr *call, int i) {
  return call->kind == PKI_E_CALL && call->func && i >= 0 && i < call->nargs &&
         call_changes_arg(call, i, 0);
}

/* A place of self: self.x (a member variable, or a field without receiver),
 * and fields or elements of it (self.pos.x). */
static bool self_place(const pki_expr *t) {
  while (t && (t->kind == PKI_E_FIELD || t->kind == PKI_E_INDEX) && t->nargs > 0 && t->args[0])
    t = t->args[0];
  return t && ((t->kind == PKI_E_FIELD && (t->nargs == 0 || !t->args[0])) ||
               (t->kind == PKI_E_VAR && t->var && t->var->kind == PKI_VAR_MEMBER) ||
               t->kind == PKI_E_SELF);
}

typedef struct self_q {
  int depth; /* method calls followed (recursion is rejected by pki_check) */
  bool hit;
} self_q;

static void self_stmt(pki_visitor *v, const pki_stmt *s) {
  self_q *q = v->data;
  if ((s->kind == PKI_S_ASSIGN || s->kind == PKI_S_AUGASSIGN) && self_place(s->target))
    q->hit = true;
}

/* self.pos.scale(2.0) of a method that changes its self, or self.pos passed
 * to a function that changes its parameter */
static void self_expr(pki_visitor *v, const pki_expr *e) {
  self_q *q = v->data;
  if (e->kind != PKI_E_CALL || !e->func)
    return;
  for (int i = 0; i < e->nargs; i++) {
    const pki_expr *a = e->args[i];
    if (!a || !self_place(a) || !class_typed(a))
      continue;
    if (call_changes_arg(e, i, q->depth + 1))
      q->hit = true;
  }
}

static bool writes_self(const pki_func *f, int depth) {
  self_q q = {depth, false};
  pki_visitor v = {.stmt = self_stmt, .expr = self_expr, .data = &q};
  if (depth > 32)
    return false;
  pki_visit_func(&v, f);
  return q.hit;
}

bool pki_func_writes_self(const pki_func *f) { return writes_self(f, 0); }

/* ---- nested scans over a team's threads (pki_has_team_scan) */

static void team_scan_stmt(pki_visitor *v, const pki_stmt *s) {
  bool *hit = v->data;
  if (s->kind == PKI_S_NESTED && s->pattern == PKI_PATTERN_SCAN && s->range != PKI_RANGE_THREAD_VECTOR)
    *hit = true;
}

bool pki_has_team_scan(const pki_func *f) {
  bool hit = false;
  pki_visitor v = {.stmt = team_scan_stmt, .data = &hit};
  pki_visit_func(&v, f);
  return hit;
}

/* ---- constants */

const pki_expr *pki_uncast(const pki_expr *e) {
  while (e && e->kind == PKI_E_CAST && e->nargs == 1)
    e = e->args[0];
  return e;
}

bool pki_const_int(const pki_expr *e, int64_t *v) {
  e = pki_uncast(e);
  if (e && e->kind == PKI_E_INT) {
    *v = e->ival;
    return true;
  }
  if (e && e->kind == PKI_E_UNARY && (e->op == PKI_OP_NEG || e->op == PKI_OP_INVERT) &&
      e->nargs == 1 && pki_const_int(e->args[0], v)) {
    if (e->op == PKI_OP_NEG && *v == INT64_MIN)
      return false;
    *v = e->op == PKI_OP_NEG ? -*v : ~*v;
    return true;
  }
  int64_t a, b;
  if (e && e->kind == PKI_E_BINARY && e->nargs == 2 &&
      (pki_is_int(e->type.kind) || e->type.kind == PKI_VOID) && /* VOID: not yet checked */
      (e->op == PKI_OP_ADD || e->op == PKI_OP_SUB || e->op == PKI_OP_MUL) &&
      pki_const_int(e->args[0], &a) && pki_const_int(e->args[1], &b)) {
    bool over = e->op == PKI_OP_ADD   ? __builtin_add_overflow(a, b, v)
                : e->op == PKI_OP_SUB ? __builtin_sub_overflow(a, b, v)
                                      : __builtin_mul_overflow(a, b, v);
    return !over; /* (0 - 1), 2 * 3: constants too */
  }
  return false;
}

/* ---- where Python errors can arise inside a kernel (pki_raising_lines) */

typedef struct raising {
  pki_arena *a;
  pki_vec funcs; /* functions already scanned */
  int lines[8];
  int n;
} raising;

static void add_line(raising *r, int line) {
  for (int i = 0; i < r->n; i++)
    if (r->lines[i] == line)
      return;
  if (r->n < 8)
    r->lines[r->n++] = line;
}

static void scan_func(raising *r, const pki_func *f);

static void raising_expr(pki_visitor *v, const pki_expr *e) {
  raising *r = v->data;
  int64_t k; /* a constant divisor is never 0 here: the checker rejects 0 */
  if (e->kind == PKI_E_BINARY && (e->op == PKI_OP_FLOORDIV || e->op == PKI_OP_MOD) &&
      pki_is_int(e->type.kind) && !pki_const_int(e->args[1], &k))
    add_line(r, (int)e->span.line);
  if (e->kind == PKI_E_BINARY && e->op == PKI_OP_POW && pki_is_int(e->type.kind) &&
      !(pki_const_int(e->args[1], &k) && k >= 0)) /* int ** a negative int: ValueError */
    add_line(r, (int)e->span.line);
  if (e->kind == PKI_E_CALL && e->func)
    scan_func(r, e->func);
}

static void raising_stmt(pki_visitor *v, const pki_stmt *s) {
  raising *r = v->data;
  int64_t k;
  if (s->kind == PKI_S_AUGASSIGN &&
      (s->op == PKI_OP_FLOORDIV || s->op == PKI_OP_MOD || s->op == PKI_OP_POW) && s->target &&
      pki_is_int(s->target->type.kind) && !pki_const_int(s->value, &k))
    add_line(r, (int)s->span.line);
  if (s->kind == PKI_S_FOR && s->step && s->step->kind != PKI_E_INT)
    add_line(r, (int)s->span.line);
  if (s->kind == PKI_S_DISPATCH && s->closure) /* @pk.main launching a workunit */
    scan_func(r, s->closure);
}

static void scan_func(raising *r, const pki_func *f) {
  for (int i = 0; i < r->funcs.n; i++)
    if (r->funcs.items[i] == f)
      return;
  pki_vec_push(r->a, &r->funcs, (void *)f);
  pki_visitor v = {.expr = raising_expr, .stmt = raising_stmt, .data = r};
  pki_visit_func(&v, f);
}

const char *pki_raising_lines(pki_arena *a, const pki_func *f) {
  raising r = {.a = a};
  scan_func(&r, f);
  if (!r.n)
    return NULL;
  char buf[128];
  int k = snprintf(buf, sizeof buf, "line%s %d", r.n > 1 ? "s" : "", r.lines[0]);
  for (int i = 1; i < r.n && k < (int)sizeof buf - 16; i++)
    k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%d", i == r.n - 1 ? " or " : ", ",
                  r.lines[i]);
  return pki_sprintf(a, "%s", buf);
}

typedef struct assign_q {
  const pki_var *v;
  bool hit;
} assign_q;

static void assign_stmt(pki_visitor *vis, const pki_stmt *s) {
  assign_q *q = vis->data;
  if ((s->kind == PKI_S_ASSIGN || s->kind == PKI_S_AUGASSIGN) && s->target->kind == PKI_E_VAR &&
      s->target->var == q->v)
    q->hit = true;
}

bool pki_block_assigns(const pki_block *b, const pki_var *v) {
  assign_q q = {.v = v};
  pki_visitor vis = {.stmt = assign_stmt, .data = &q};
  pki_visit_block(&vis, b);
  return q.hit;
}

typedef struct summed_q {
  const pki_var *acc;
  bool other; /* a statement stores to acc other than by += / -= */
} summed_q;

static void summed_stmt(pki_visitor *vis, const pki_stmt *s) {
  summed_q *q = vis->data;
  if ((s->kind == PKI_S_ASSIGN || s->kind == PKI_S_AUGASSIGN || s->kind == PKI_S_NESTED ||
       s->kind == PKI_S_DISPATCH) &&
      s->target && s->target->kind == PKI_E_VAR && s->target->var == q->acc &&
      !(s->kind == PKI_S_AUGASSIGN && (s->op == PKI_OP_ADD || s->op == PKI_OP_SUB)))
    q->other = true;
}

bool pki_reducer_has_fields(pki_reducer r) {
  return r == PKI_REDUCER_MAXLOC || r == PKI_REDUCER_MINLOC || r == PKI_REDUCER_MINMAX ||
         r == PKI_REDUCER_MINMAXLOC;
}

bool pki_reducer_field(pki_reducer r, const char *name, bool *is_loc) {
  static const char *const valloc[] = {"val", "loc", NULL};
  static const char *const minmax[] = {"min_val", "max_val", NULL};
  static const char *const minmaxloc[] = {"min_val", "min_loc", "max_val", "max_loc", NULL};
  const char *const *names = r == PKI_REDUCER_MAXLOC || r == PKI_REDUCER_MINLOC ? valloc
                             : r == PKI_REDUCER_MINMAX                          ? minmax
                             : r == PKI_REDUCER_MINMAXLOC                       ? minmaxloc
                                                                                : NULL;
  for (int i = 0; names && names[i]; i++)
    if (!strcmp(names[i], name)) {
      if (is_loc)
        *is_loc = strstr(name, "loc") != NULL;
      return true;
    }
  return false;
}

bool pki_acc_only_summed(const pki_func *f) {
  if (!f->acc || (f->acc->uses & PKI_USE_READ))
    return false;
  summed_q q = {.acc = f->acc};
  pki_visitor vis = {.stmt = summed_stmt, .data = &q};
  pki_visit_func(&vis, f);
  return !q.other;
}
