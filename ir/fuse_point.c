/*
 * fuse_point.c - what fusion planning asks of one kernel's body (access.h):
 * whether the links of a chain can be inlined in a fused operator, and which
 * Views a repeated chain may keep in registers (point residency: used only at
 * the work point, first touched by a store, extents read).
 */
#include <string.h>

#include "access.h"

typedef struct point_ctx {
  const pki_func *f;
  const pki_var *v;
  int uses, at_point, whole;
  bool returns;
} point_ctx;

static const pki_var *base_var(const pki_expr *e) {
  e = pki_uncast(e);
  return e && (e->kind == PKI_E_VAR || e->kind == PKI_E_FIELD) ? e->var : NULL;
}

/* e (an INDEX) reads the element at the work point: f's indices, in order. */
static bool at_work_point(const pki_func *f, const pki_expr *e) {
  if (e->nargs - 1 != f->nindex || f->nindex < 1)
    return false;
  for (int d = 0; d < f->nindex; d++)
    if (base_var(e->args[d + 1]) != f->index[d])
      return false;
  return true;
}

static void point_expr(pki_visitor *vis, const pki_expr *e) {
  point_ctx *p = vis->data;
  if ((e->kind == PKI_E_VAR || e->kind == PKI_E_FIELD) && e->var == p->v)
    p->uses++;
  else if (e->kind == PKI_E_INDEX && e->nargs && base_var(e->args[0]) == p->v &&
           at_work_point(p->f, e))
    p->at_point++;
  else if (e->kind == PKI_E_EXTENT && e->nargs && base_var(e->args[0]) == p->v)
    p->whole++;
}

static void point_stmt(pki_visitor *vis, const pki_stmt *s) {
  point_ctx *p = vis->data;
  p->returns |= s->kind == PKI_S_RETURN;
}

bool pki_point_only(const pki_access_summary *s, const pki_func *f, const pki_var *v,
                    bool *whole) {
  *whole = false;
  if (s->unknown || f->nclosures)
    return false;
  for (int i = 0; i < s->accesses.n; i++) {
    const pki_access *x = PKI_AT(s->accesses, i, pki_access);
    if (x->view != v)
      continue;
    if (x->callee || (x->mode & PKI_MEM_ATOMIC) || x->rank != f->nindex)
      return false;
    for (int d = 0; d < x->rank; d++)
      if (x->idx[d].kind != PKI_IDX_IDENTITY || x->idx[d].work != d)
        return false;
  }
  point_ctx p = {.f = f, .v = v};
  pki_visitor vis = {.expr = point_expr, .data = &p};
  pki_visit_func(&vis, f);
  *whole = p.whole > 0;
  /* each INDEX / EXTENT also visits its base once */
  return p.uses == p.at_point + p.whole;
}

static void mention_expr(pki_visitor *vis, const pki_expr *e) {
  point_ctx *p = vis->data;
  if ((e->kind == PKI_E_VAR || e->kind == PKI_E_FIELD) && e->var == p->v)
    p->uses++;
}

pki_first_touch pki_first_touch_of(const pki_func *f, const pki_var *v) {
  for (int k = 0; k < f->body.n; k++) {
    const pki_stmt *s = f->body.stmts[k];
    point_ctx p = {.f = f, .v = v};
    pki_visitor vis = {.expr = mention_expr, .data = &p};
    pki_visit_stmt(&vis, s);
    if (!p.uses)
      continue;
    if (s->kind != PKI_S_ASSIGN || s->target->kind != PKI_E_INDEX ||
        base_var(s->target->args[0]) != v || !at_work_point(f, s->target))
      return PKI_TOUCH_OTHER;
    point_ctx q = {.f = f, .v = v};
    vis.data = &q;
    pki_visit_expr(&vis, s->value);
    return q.uses ? PKI_TOUCH_OTHER : PKI_TOUCH_STORE;
  }
  return PKI_TOUCH_NONE;
}

/* Whether f's body has a return statement (it cannot be inlined as a block). */
static bool func_returns(const pki_func *f) {
  point_ctx p = {0};
  pki_visitor vis = {.stmt = point_stmt, .data = &p};
  pki_visit_func(&vis, f);
  return p.returns;
}

bool pki_extent_used(const pki_func *f, const pki_var *v) {
  point_ctx p = {.f = f, .v = v};
  pki_visitor vis = {.expr = point_expr, .data = &p};
  pki_visit_func(&vis, f);
  return p.whole > 0;
}

static bool pkc_name(const char *s) { return !strncmp(s, "pkc_", 4); }

/* No return, no name of ours (pkc_*) that the inlined code could hide. */
bool pki_links_inlinable(const pki_func *const *fs, int n, const pki_entity *owner) {
  for (int k = 0; k < n; k++) {
    const pki_func *f = fs[k];
    if (func_returns(f) || f->nclosures)
      return false;
    for (int i = 0; i < f->nlocals; i++)
      if (pkc_name(f->locals[i]->name))
        return false;
    for (int i = 0; i < f->nparams; i++)
      if (pkc_name(f->params[i]->name))
        return false;
    for (int i = 0; i < f->nindex; i++)
      if (pkc_name(f->index[i]->name))
        return false;
  }
  for (int i = 0; owner && i < owner->nmembers; i++)
    if (pkc_name(owner->members[i]->name))
      return false;
  return true;
}
