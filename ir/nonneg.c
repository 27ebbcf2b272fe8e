/*
 * nonneg.c - integer // and % that C++'s / and % compute as Python does
 * (pki_nonneg_plan_module, access.h): the divisor a positive constant and
 * the dividend provably >= 0, where truncation and flooring agree. The
 * backends write those plainly (pki_expr.plain_div) and keep pkc::floordiv /
 * pkc::pymod elsewhere.
 *
 * Provably >= 0 (nonneg): non-negative literals; values of unsigned type;
 * loop variables of `for x in range(a, b[, step])` with a provably >= 0 and
 * a positive constant step that no statement assigns; team.league_rank(),
 * team_rank(), league_size(), team_size(); len(v) and extents; abs(); +, *
 * and // of non-negatives; x % y with y >= 0 (Python's result takes the
 * divisor's sign); min/max of non-negatives; widening casts of them. A
 * kernel's work index is not: a RangePolicy may begin below 0. As for every
 * integer in pkc, + and * wrap around at 64 bits where Python's would grow;
 * abs(INT64_MIN) stays negative (as numpy's).
 */
#include "access.h"

typedef struct nn_ctx {
  pki_arena *a;
  pki_vec loops;    /* PKI_S_FOR statements of the function and its closures */
  pki_vec assigned; /* variables some statement assigns */
  pki_vec good;     /* loop variables proven >= 0 */
} nn_ctx;

static bool nonneg(const nn_ctx *c, const pki_expr *e);

static bool all_nonneg(const nn_ctx *c, const pki_expr *e) {
  for (int i = 0; i < e->nargs; i++)
    if (!nonneg(c, e->args[i]))
      return false;
  return e->nargs > 0;
}

/* A cast keeps a value >= 0 when the target holds every value of the source. */
static bool widening(pki_kind to, pki_kind from) {
  if (from == PKI_BOOL)
    return true;
  if (!pki_is_int(from))
    return false;
  int bt = pki_kind_bits(to), bf = pki_kind_bits(from);
  return bt > bf || (bt == bf && (pki_is_signed(from) || !pki_is_signed(to)));
}

static bool nonneg_binary(const nn_ctx *c, const pki_expr *e) {
  switch (e->op) {
  case PKI_OP_ADD: case PKI_OP_MUL: case PKI_OP_FLOORDIV: return all_nonneg(c, e);
  case PKI_OP_MOD: return nonneg(c, e->args[1]);
  default: return false;
  }
}

static bool nonneg_call(const nn_ctx *c, const pki_expr *e) {
  if (e->kind == PKI_E_BUILTIN)
    return e->builtin == PKI_BUILTIN_ABS ||
           ((e->builtin == PKI_BUILTIN_MIN || e->builtin == PKI_BUILTIN_MAX) && all_nonneg(c, e));
  switch (e->intrinsic) {
  case PKI_INTRINSIC_LEAGUE_RANK: case PKI_INTRINSIC_TEAM_RANK:
  case PKI_INTRINSIC_LEAGUE_SIZE: case PKI_INTRINSIC_TEAM_SIZE: return true;
  default: return false;
  }
}

static bool nonneg(const nn_ctx *c, const pki_expr *e) {
  if (!e || !pki_is_int(e->type.kind))
    return false;
  if (!pki_is_signed(e->type.kind))
    return true;
  switch (e->kind) {
  case PKI_E_INT: return e->ival >= 0;
  case PKI_E_VAR: return pki_vec_has(&c->good, e->var);
  case PKI_E_EXTENT: return true;
  case PKI_E_CAST:
    return e->nargs == 1 && widening(e->type.kind, e->args[0]->type.kind) &&
           (e->args[0]->type.kind == PKI_BOOL || nonneg(c, e->args[0]));
  case PKI_E_BINARY: return nonneg_binary(c, e);
  case PKI_E_COND: return e->nargs == 3 && nonneg(c, e->args[1]) && nonneg(c, e->args[2]);
  case PKI_E_BUILTIN: case PKI_E_INTRINSIC: return nonneg_call(c, e);
  default: return false;
  }
}

/* ---- facts: the loops, the assigned variables */

static void fact_stmt(pki_visitor *v, const pki_stmt *s) {
  nn_ctx *c = v->data;
  if (s->kind == PKI_S_FOR && s->var)
    pki_vec_push(c->a, &c->loops, (void *)s);
  if ((s->kind == PKI_S_ASSIGN || s->kind == PKI_S_AUGASSIGN) && s->target &&
      s->target->kind == PKI_E_VAR)
    pki_vec_push(c->a, &c->assigned, s->target->var);
}

static bool loop_ok(const nn_ctx *c, const pki_stmt *s) {
  int64_t step = 1;
  return !pki_vec_has(&c->assigned, s->var) && nonneg(c, s->begin) &&
         (!s->step || (pki_const_int(s->step, &step) && step > 0));
}

/* The loop variables >= 0: every loop of a variable qualifies, given the
 * others (a loop's start may be another's variable); starts from all of them
 * and drops the ones that fail until none does. */
static void prove_loops(nn_ctx *c) {
  for (int i = 0; i < c->loops.n; i++) {
    const pki_stmt *s = c->loops.items[i];
    if (!pki_vec_has(&c->good, s->var))
      pki_vec_push(c->a, &c->good, s->var);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < c->loops.n; i++) {
      const pki_stmt *s = c->loops.items[i];
      if (!pki_vec_has(&c->good, s->var) || loop_ok(c, s))
        continue;
      for (int k = 0; k < c->good.n; k++)
        if (c->good.items[k] == s->var)
          c->good.items[k] = c->good.items[--c->good.n];
      changed = true;
    }
  }
}

/* ---- marking */

static void mark_expr(pki_visitor *v, const pki_expr *e) {
  const nn_ctx *c = v->data;
  int64_t k;
  if (e->kind == PKI_E_BINARY && (e->op == PKI_OP_FLOORDIV || e->op == PKI_OP_MOD) &&
      e->nargs == 2 && pki_is_int(e->type.kind) && pki_const_int(e->args[1], &k) && k > 0 &&
      nonneg(c, e->args[0]))
    ((pki_expr *)e)->plain_div = true; /* the pass owns the module's IR */
}

static void plan_func(pki_arena *a, const pki_func *f) {
  nn_ctx c = {.a = a};
  pki_visitor facts = {.stmt = fact_stmt, .data = &c};
  pki_visit_func(&facts, f); /* closures included: they see f's loop variables */
  prove_loops(&c);
  pki_visitor marks = {.expr = mark_expr, .data = &c};
  pki_visit_func(&marks, f);
}

void pki_nonneg_plan_module(pki_module *m) {
  for (int i = 0; i < m->nentities; i++)
    for (int k = 0; k < m->entities[i]->nfuncs; k++)
      if (m->entities[i]->funcs[k])
        plan_func(m->arena, m->entities[i]->funcs[k]);
}
