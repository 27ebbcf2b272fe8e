/*
 * select.c - which entities a build keeps (PyKokkos compiles per workunit,
 * so one rejected kernel must not sink the others of its file).
 *
 * pki_select drops entities with errors, runtime-typed workunits and whatever
 * uses them, and records why (m->omitted, written into the module's
 * descriptor so that calling an omitted kernel raises its diagnostic).
 * pki_keep_only keeps one workunit and what it uses (specialization builds).
 * Entity uses are found with the visitor: calls into other entities'
 * functions and classtype values.
 */
#include "ir.h"

#include <string.h>

typedef struct uses {
  const pki_module *m;
  const pki_entity *self;
  bool *used; /* per entity index of m */
} uses;

static void mark(uses *u, const pki_entity *e) {
  if (!e || e == u->self)
    return;
  for (int i = 0; i < u->m->nentities; i++)
    if (u->m->entities[i] == e)
      u->used[i] = true;
}

static void use_type(uses *u, pki_type t) {
  if (t.kind == PKI_CLASS)
    mark(u, t.cls);
}

static void on_expr(pki_visitor *v, const pki_expr *e) {
  uses *u = v->data;
  use_type(u, e->type);
  if (e->func)
    mark(u, e->func->owner);
  if (e->var)
    use_type(u, e->var->type);
}

static void on_var(pki_visitor *v, const pki_var *var) { use_type(v->data, var->type); }

static void on_stmt(pki_visitor *v, const pki_stmt *s) {
  uses *u = v->data;
  if (s->closure)
    mark(u, s->closure->owner);
}

/* used[i] = entity i of m is used by e (e itself excluded). */
static void entity_uses(const pki_module *m, const pki_entity *e, bool *used) {
  memset(used, 0, sizeof *used * (size_t)m->nentities);
  uses u = {m, e, used};
  pki_visitor v = {.expr = on_expr, .stmt = on_stmt, .var = on_var, .data = &u};
  pki_visit_entity(&v, e);
  for (int i = 0; i < e->nfuncs; i++)
    if (e->funcs[i])
      use_type(&u, e->funcs[i]->ret);
}

bool pki_span_in_entity(const pki_entity *e, pki_span at) {
  pki_span x = e->extent.end_byte ? e->extent : e->span;
  return at.start_byte >= x.start_byte && at.start_byte < x.end_byte;
}

/* The first error inside e's extent, or NULL. */
static const pki_diag *first_error(const pki_entity *e, const pki_diags *d, int first) {
  for (int i = first; i < d->n; i++)
    if (d->items[i].severity == PKI_SEV_ERROR && pki_span_in_entity(e, d->items[i].span))
      return &d->items[i];
  return NULL;
}

static const char *runtime_typed_reason(pki_arena *a, const pki_entity *e) {
  return pki_sprintf(a, "the parameter types of '%s' are known only from the arguments of "
                        "a call; it is built as a run-time specialization", e->name);
}

bool pki_select(pki_module *m, const pki_diags *d, int first) {
  int n = m->nentities;
  for (int i = first; i < d->n; i++) {
    if (d->items[i].severity != PKI_SEV_ERROR)
      continue;
    bool inside = false;
    for (int k = 0; k < n && !inside; k++)
      inside = pki_span_in_entity(m->entities[k], d->items[i].span);
    if (!inside)
      return false;
  }
  pki_omitted *why = pki_alloc(m->arena, sizeof *why * (size_t)(n + 1));
  bool *out = pki_alloc(m->arena, sizeof *out * (size_t)(n + 1));
  bool *used = pki_alloc(m->arena, sizeof *used * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    pki_entity *e = m->entities[i];
    const pki_diag *dg = first_error(e, d, first);
    if (dg) {
      out[i] = true;
      why[i] = (pki_omitted){e->name, PKI_OMIT_REJECTED, dg->span, dg->message};
    } else if (e->kind == PKI_ENT_WORKUNIT && e->nfuncs && e->funcs[0]->runtime_typed) {
      out[i] = true;
      why[i] = (pki_omitted){e->name, PKI_OMIT_RUNTIME_TYPED, e->span,
                             runtime_typed_reason(m->arena, e)};
    }
  }
  for (bool changed = true; changed;) { /* users of omitted entities go too */
    changed = false;
    for (int i = 0; i < n; i++) {
      if (out[i])
        continue;
      entity_uses(m, m->entities[i], used);
      for (int k = 0; k < n && !out[i]; k++)
        if (used[k] && out[k]) {
          out[i] = changed = true;
          why[i] = (pki_omitted){m->entities[i]->name, PKI_OMIT_REJECTED, why[k].at,
                                 pki_sprintf(m->arena, "'%s' uses '%s', which was rejected: %s",
                                             m->entities[i]->name, m->entities[k]->name,
                                             why[k].message)};
        }
    }
  }
  int kept = 0;
  pki_omitted *before = m->omitted; /* a second pass (after pki_check) appends */
  m->omitted = pki_alloc(m->arena, sizeof *m->omitted * (size_t)(m->nomitted + n + 1));
  if (m->nomitted)
    memcpy(m->omitted, before, sizeof *before * (size_t)m->nomitted);
  for (int i = 0; i < n; i++) {
    if (out[i])
      m->omitted[m->nomitted++] = why[i];
    else
      m->entities[kept++] = m->entities[i];
  }
  m->nentities = kept;
  return true;
}

bool pki_keep_only(pki_module *m, const char *root) {
  int n = m->nentities, r = -1;
  for (int i = 0; i < n; i++)
    if (m->entities[i]->kind == PKI_ENT_WORKUNIT && !strcmp(m->entities[i]->name, root))
      r = i;
  if (r < 0)
    return false;
  bool *keep = pki_alloc(m->arena, sizeof *keep * (size_t)n);
  bool *used = pki_alloc(m->arena, sizeof *used * (size_t)n);
  keep[r] = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < n; i++) {
      if (!keep[i])
        continue;
      entity_uses(m, m->entities[i], used);
      for (int k = 0; k < n; k++)
        if (used[k] && !keep[k])
          keep[k] = changed = true;
    }
  }
  int kept = 0;
  for (int i = 0; i < n; i++)
    if (keep[i])
      m->entities[kept++] = m->entities[i];
  m->nentities = kept;
  return true;
}
