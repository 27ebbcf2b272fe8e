/*
 * visit.c - the one walk over a function's IR (pki_visitor): declarations,
 * statements, expressions and nested closures, in source order. Passes that
 * only need to look at nodes (pki_select's entity uses, ...) hook into it
 * instead of writing a walker of their own.
 */
#include "ir.h"

static void visit_expr(pki_visitor *v, const pki_expr *e) {
  if (!e)
    return;
  if (v->expr)
    v->expr(v, e);
  for (int i = 0; i < e->nargs; i++)
    visit_expr(v, e->args[i]);
}

static void visit_block(pki_visitor *v, const pki_block *b);

static void visit_stmt(pki_visitor *v, const pki_stmt *s) {
  if (v->stmt)
    v->stmt(v, s);
  if (s->var && s->kind == PKI_S_DECL && v->var)
    v->var(v, s->var);
  if (s->target && v->target)
    v->target(v, s, s->target);
  else
    visit_expr(v, s->target);
  const pki_expr *es[] = {s->value, s->cond, s->begin, s->end, s->step};
  for (size_t k = 0; k < sizeof es / sizeof es[0]; k++)
    visit_expr(v, es[k]);
  for (int k = 0; k < s->nargs; k++)
    visit_expr(v, s->args[k]);
  if (v->closures && s->closure)
    visit_block(v, &s->closure->body);
  visit_block(v, &s->body);
  visit_block(v, &s->orelse);
}

static void visit_block(pki_visitor *v, const pki_block *b) {
  for (int i = 0; i < b->n; i++)
    visit_stmt(v, b->stmts[i]);
}

void pki_visit_expr(pki_visitor *v, const pki_expr *e) { visit_expr(v, e); }
void pki_visit_stmt(pki_visitor *v, const pki_stmt *s) { visit_stmt(v, s); }
void pki_visit_block(pki_visitor *v, const pki_block *b) { visit_block(v, b); }

void pki_visit_func(pki_visitor *v, const pki_func *f) {
  if (v->var) {
    for (int i = 0; i < f->nindex; i++)
      v->var(v, f->index[i]);
    if (f->acc)
      v->var(v, f->acc);
    if (f->final)
      v->var(v, f->final);
    for (int i = 0; i < f->nparams; i++)
      v->var(v, f->params[i]);
    for (int i = 0; i < f->nlocals; i++)
      v->var(v, f->locals[i]);
  }
  visit_block(v, &f->body);
  for (int i = 0; i < f->nclosures; i++)
    pki_visit_func(v, f->closures[i]);
}

void pki_visit_entity(pki_visitor *v, const pki_entity *e) {
  if (v->var)
    for (int i = 0; i < e->nmembers; i++)
      v->var(v, e->members[i]);
  for (int i = 0; i < e->nfuncs; i++)
    if (e->funcs[i])
      pki_visit_func(v, e->funcs[i]);
}

/* ---- pki_record_uses */

/* The IR is the module's own (pki_check owns it mutably); the visitor hands
 * out const pointers. */
static void mark(const pki_var *var, unsigned bits) { ((pki_var *)var)->uses |= bits; }

static void clear_var(pki_visitor *v, const pki_var *var) { ((pki_var *)var)->uses = 0; }

static void uses_expr(pki_visitor *v, const pki_expr *e) {
  if (e->kind == PKI_E_VAR && e->var)
    mark(e->var, PKI_USE_READ | PKI_USE_NAMED);
}

/* xs[k] = ... (xs[k][l], xs[k] += ...) with xs a local List: a store into
 * the array, not a read of it (g++: "set but not used" when nothing reads
 * it); the indices are read. */
static bool list_store(pki_visitor *v, const pki_expr *t) {
  const pki_expr *base = t;
  while (base->kind == PKI_E_INDEX && base->nargs > 0)
    base = base->args[0];
  if (base == t || base->kind != PKI_E_VAR || !base->var || base->type.kind != PKI_ARRAY ||
      base->var->kind != PKI_VAR_LOCAL)
    return false;
  mark(base->var, PKI_USE_ASSIGNED | PKI_USE_NAMED);
  for (const pki_expr *e = t; e != base; e = e->args[0])
    for (int i = 1; i < e->nargs; i++)
      visit_expr(v, e->args[i]);
  return true;
}

static void uses_target(pki_visitor *v, const pki_stmt *s, const pki_expr *t) {
  if (list_store(v, t))
    return;
  if (t->kind == PKI_E_VAR && t->var)
    mark(t->var, PKI_USE_ASSIGNED);
  if (t->kind == PKI_E_VAR && t->var && s->kind != PKI_S_NESTED && s->kind != PKI_S_DISPATCH)
    mark(t->var, PKI_USE_NAMED); /* x = ..., x += ...: written, not read */
  else
    visit_expr(v, t);
}

static void uses_stmt(pki_visitor *v, const pki_stmt *s) {
  if (s->kind == PKI_S_DECL && s->var)
    mark(s->var, PKI_USE_DECLARED);
}

void pki_record_uses(pki_module *m) {
  pki_visitor clear = {.var = clear_var};
  pki_visitor uses = {.expr = uses_expr, .stmt = uses_stmt, .target = uses_target};
  for (int i = 0; i < m->nentities; i++)
    if (m->entities[i])
      pki_visit_entity(&clear, m->entities[i]);
  for (int i = 0; i < m->nentities; i++)
    if (m->entities[i])
      pki_visit_entity(&uses, m->entities[i]);
}
