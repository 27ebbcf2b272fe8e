/*
 * extents.c - what a launch range must fit before a kernel runs (hardening:
 * a range larger than the Views, or a negative begin, must raise instead of
 * corrupting memory).
 *
 * From the kernel's access summary, only accesses that every work point
 * performs count: those in the simple statements at the top of the body,
 * before any statement that may return, and not under a conditional
 * expression or the right side of `and`/`or`. Where such an access indexes
 * dimension d of View v by work index k plus a constant c, every point of
 * the range touches v at k + c, so begin_k + c >= 0 and end_k - 1 + c <
 * extent(d) must hold (the wrapper checks it; pkb). c may have a run-time
 * part, an integer parameter or member the kernel never assigns (x[i + off]):
 * the wrapper adds its value. An access under `if 0 <
 * i < n - 1:` implies nothing, so guarded stencils run over any range.
 * The top of the body of a top-level `for j in range(c, end)` (step 1) runs
 * on every point where the loop runs at all: its accesses give rules that
 * hold when end > c at the launch (end a constant, a View's extent, or an
 * integer argument the kernel never assigns: pki_extent_guard), so
 * M[i][j] in `for j in range(M.extent(1))` checks M's extent 0 unless M has
 * no columns.
 *
 * In a TeamPolicy workunit the work index is the league rank
 * (`team.league_rank()`, over range(0, league_size)); the statements of a
 * team loop (pk.parallel_for(pk.TeamThreadRange(...), body)) or a pk.single
 * at the top of the body count as run by every team: a team whose loop range
 * is empty is taken to index as well (the check may then refuse a launch that
 * would not have touched the View: make the league no larger than the View).
 */
#include "access.h"

#include <string.h>

typedef struct region {
  pki_vec always;   /* pki_span *: statements every work point runs */
  pki_vec guards;   /* pki_extent_guard * of each always span (NULL: none) */
  pki_vec maybe;    /* pki_span *: conditional parts inside them */
  const pki_func *f;
  const pki_extent_guard *guard; /* of the loop being walked */
  pki_arena *a;
} region;

static void push_span(region *r, pki_vec *v, pki_span s) {
  pki_span *p = pki_alloc(r->a, sizeof *p);
  *p = s;
  pki_vec_push(r->a, v, p);
  if (v == &r->always)
    pki_vec_push(r->a, &r->guards, (void *)r->guard);
}

static void on_cond_expr(pki_visitor *v, const pki_expr *e) {
  region *r = v->data;
  if (e->kind == PKI_E_COND) {
    push_span(r, &r->maybe, e->args[1]->span);
    push_span(r, &r->maybe, e->args[2]->span);
  } else if (e->kind == PKI_E_LOGICAL && e->nargs > 1 && e->args[1])
    push_span(r, &r->maybe, e->args[1]->span);
}

static void on_return(pki_visitor *v, const pki_stmt *s) {
  if (s->kind == PKI_S_RETURN)
    *(bool *)v->data = true;
}

static bool has_return(const pki_stmt *s) {
  bool found = false;
  pki_visitor v = {.stmt = on_return, .data = &found};
  pki_visit_stmt(&v, s);
  return found;
}

/* An integer argument or data member f never assigns (its value at the launch). */
static bool launch_value(const pki_func *f, const pki_var *v) {
  if (!v || (v->kind != PKI_VAR_PARAM && v->kind != PKI_VAR_MEMBER) || !pki_is_int(v->type.kind))
    return false;
  return !pki_block_assigns(&f->body, v);
}

/* The guard of loop s (`for j in range(c, end)`, step 1), or NULL where its
 * trip count is not known at the launch or is 0. */
static const pki_extent_guard *loop_guard(region *r, const pki_stmt *s) {
  const pki_expr *b = pki_uncast(s->begin), *e = pki_uncast(s->end), *st = pki_uncast(s->step);
  if (r->guard || !e || (b && b->kind != PKI_E_INT) || (st && (st->kind != PKI_E_INT ||
                                                               st->ival != 1)))
    return NULL; /* a loop inside a loop: not followed */
  pki_extent_guard g = {.begin = b ? b->ival : 0};
  if (e->kind == PKI_E_INT)
    g.end = e->ival;
  else if (e->kind == PKI_E_EXTENT && e->nargs == 1 && e->args[0] &&
           e->args[0]->kind == PKI_E_VAR && e->args[0]->var &&
           (e->args[0]->var->kind == PKI_VAR_PARAM || e->args[0]->var->kind == PKI_VAR_MEMBER))
    g.view = e->args[0]->var, g.dim = (int)e->ival;
  else if (e->kind == PKI_E_VAR && launch_value(r->f, e->var))
    g.var = e->var;
  else
    return NULL;
  if (!g.view && !g.var && g.end <= g.begin)
    return NULL; /* never runs */
  pki_extent_guard *p = pki_alloc(r->a, sizeof *p);
  *p = g;
  return p;
}

static void find_regions(const pki_block *body, region *r) {
  for (int i = 0; i < body->n; i++) {
    const pki_stmt *s = body->stmts[i];
    if (s->kind == PKI_S_RETURN || s->kind == PKI_S_BREAK || s->kind == PKI_S_CONTINUE ||
        has_return(s))
      return; /* later statements may not run */
    if ((s->kind == PKI_S_NESTED || s->kind == PKI_S_SINGLE) && s->closure) {
      find_regions(&s->closure->body, r); /* every team runs it (a team loop: if not empty) */
      continue;
    }
    const pki_extent_guard *g = s->kind == PKI_S_FOR ? loop_guard(r, s) : NULL;
    if (g) { /* its first iteration runs the top of its body where the loop runs */
      r->guard = g;
      find_regions(&s->body, r);
      r->guard = NULL;
      continue;
    }
    if (s->kind != PKI_S_DECL && s->kind != PKI_S_ASSIGN && s->kind != PKI_S_AUGASSIGN &&
        s->kind != PKI_S_EXPR)
      continue;
    push_span(r, &r->always, s->span);
    pki_visitor v = {.expr = on_cond_expr, .data = r};
    const pki_expr *es[] = {s->target, s->value};
    for (int k = 0; k < 2; k++)
      pki_visit_expr(&v, es[k]);
  }
}

static bool inside(pki_span in, pki_span out) {
  return in.start_byte >= out.start_byte && in.end_byte <= out.end_byte;
}

/* The index of the span of spans that holds s, or -1. */
static int span_holding(pki_span s, const pki_vec *spans) {
  for (int i = 0; i < spans->n; i++)
    if (inside(s, *PKI_AT(*spans, i, pki_span)))
      return i;
  return -1;
}

static bool any_inside(pki_span s, const pki_vec *spans) { return span_holding(s, spans) >= 0; }

static pki_extent_rule *find_rule(pki_vec *rules, const pki_var *v, int dim, const pki_idx *ix,
                                  const pki_extent_guard *g) {
  for (int i = 0; i < rules->n; i++) {
    pki_extent_rule *x = PKI_AT(*rules, i, pki_extent_rule);
    if (x->view == v && x->dim == dim && x->var == ix->var && x->guard == g &&
        (!ix->var || x->var_coef == ix->var_coef))
      return x;
  }
  return NULL;
}

static void add_rule(pki_arena *a, pki_vec *rules, const pki_access *x, int d,
                     const pki_extent_guard *g) {
  const pki_idx *ix = &x->idx[d];
  int64_t c = ix->kind == PKI_IDX_IDENTITY ? 0 : ix->offset;
  pki_extent_rule *r = find_rule(rules, x->view, d, ix, g);
  if (r && r->work != ix->work)
    return; /* another work index in this dimension: keep the first */
  if (!r) {
    r = pki_alloc(a, sizeof *r);
    *r = (pki_extent_rule){.view = x->view, .dim = d, .work = ix->work, .lo = c, .hi = c,
                           .var = ix->var, .var_coef = ix->var_coef, .guard = g};
    pki_vec_push(a, rules, r);
    return;
  }
  r->lo = c < r->lo ? c : r->lo;
  r->hi = c > r->hi ? c : r->hi;
}

/* The extent rules of RangePolicy/MDRangePolicy workunit f with summary s
 * (pki_extent_rule *, in m's arena; empty for other kernels): only accesses
 * every work point makes count (extents.c says which). */
static pki_vec kernel_extent_rules(pki_module *m, const pki_func *f, const pki_access_summary *s) {
  pki_vec rules = {0};
  if (!f->is_workunit || f->is_main)
    return rules;
  region r = {.a = m->arena, .f = f};
  find_regions(&f->body, &r);
  for (int i = 0; i < s->accesses.n; i++) {
    const pki_access *x = PKI_AT(s->accesses, i, pki_access);
    int at = span_holding(x->span, &r.always);
    if (x->callee || at < 0 || any_inside(x->span, &r.maybe))
      continue;
    if (x->view->kind != PKI_VAR_PARAM && x->view->kind != PKI_VAR_MEMBER)
      continue;
    const pki_extent_guard *g = PKI_AT(r.guards, at, pki_extent_guard);
    for (int d = 0; d < x->rank && d < x->view->type.rank; d++)
      if ((x->idx[d].kind == PKI_IDX_IDENTITY || x->idx[d].kind == PKI_IDX_OFFSET ||
           (x->idx[d].kind == PKI_IDX_AFFINE && x->idx[d].var)) &&
          x->idx[d].work < f->nindex)
        add_rule(m->arena, &rules, x, d, g);
  }
  return rules;
}

void pki_extent_plan_module(pki_module *m) {
  for (int i = 0; i < m->nentities; i++) {
    pki_entity *e = m->entities[i];
    for (int j = 0; e && j < e->nfuncs; j++) {
      pki_func *f = e->funcs[j];
      if (f && f->is_workunit && !f->is_closure && !f->runtime_typed)
        f->extent_rules = kernel_extent_rules(m, f, pki_access_summarize(m, f));
    }
  }
}
