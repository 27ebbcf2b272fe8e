/*
 * scope.c - C++ block scopes for Python names. Each block keeps the names it
 * binds; when it closes, they are remembered as "dead" in the enclosing block
 * so that a later use can say where the name was bound and what to do.
 * Also the names imports bind (pk, math, np and names imported from them).
 */
#include "fe.h"

void pkf_scope_push(pkf_ctx *c, pkf_scope *s, const char *construct, pki_span at) {
  memset(s, 0, sizeof *s);
  s->parent = c->scope;
  s->construct = construct;
  s->at = at;
  c->scope = s;
}

static void add_dead(pkf_ctx *c, pkf_scope *s, const char *name, const char *construct,
                     pki_span at) {
  for (int i = 0; i < s->nd; i++)
    if (strcmp(s->dead[i].name, name) == 0)
      return;
  if (s->nd == s->capd) {
    int ncap = s->capd ? s->capd * 2 : 8;
    pkf_dead *nd = pki_alloc(c->m->arena, sizeof *nd * (size_t)ncap);
    if (s->nd)
      memcpy(nd, s->dead, sizeof *nd * (size_t)s->nd);
    s->dead = nd;
    s->capd = ncap;
  }
  s->dead[s->nd++] = (pkf_dead){name, construct, at};
}

/* Forgets the nested defs made in s (when s closes). */
static void ndefs_pop(pkf_ctx *c, pkf_scope *s) {
  while (c->ndefs && c->ndefs->scope == s)
    c->ndefs = c->ndefs->next;
}

void pkf_scope_pop(pkf_ctx *c) {
  pkf_scope *s = c->scope;
  c->scope = s->parent;
  ndefs_pop(c, s);
  if (!s->parent)
    return;
  for (int i = 0; i < s->n; i++)
    add_dead(c, s->parent, s->vars[i]->name, s->construct, s->at);
  for (int i = 0; i < s->nd; i++) /* a rejected binding stays one */
    add_dead(c, s->parent, s->dead[i].name, s->dead[i].construct ? s->construct : NULL, s->at);
}

void pkf_scope_reject(pkf_ctx *c, TSNode name) {
  if (c->scope && pkf_type_is(c, name, PKF_N_IDENTIFIER))
    add_dead(c, c->scope, pkf_text(c, name), NULL, pkf_span(name));
}

void pkf_scope_bind(pkf_ctx *c, pki_var *v) {
  pkf_scope *s = c->scope;
  if (v->kind != PKI_VAR_MEMBER && !strcmp(v->name, "self") && c->ent &&
      c->ent->kind != PKI_ENT_WORKUNIT && c->ent->kind != PKI_ENT_FUNCTION)
    pki_error(c->d, v->span, "self-bind",
              "'self' is the %s's instance; use another name for this variable",
              c->ent->kind == PKI_ENT_CLASSTYPE  ? "classtype"
              : c->ent->kind == PKI_ENT_WORKLOAD ? "workload"
                                                 : "functor");
  if (s->n == s->cap) {
    int ncap = s->cap ? s->cap * 2 : 8;
    pki_var **nv = pki_alloc(c->m->arena, sizeof *nv * (size_t)ncap);
    if (s->n)
      memcpy(nv, s->vars, sizeof *nv * (size_t)s->n);
    s->vars = nv;
    s->cap = ncap;
  }
  s->vars[s->n++] = v;
}

static bool name_eq(const char *a, const char *b, size_t len) {
  return strncmp(a, b, len) == 0 && a[len] == 0;
}

pki_var *pkf_lookup(pkf_ctx *c, const char *name, size_t len) {
  for (pkf_scope *s = c->scope; s; s = s->parent)
    for (int i = s->n - 1; i >= 0; i--)
      if (name_eq(s->vars[i]->name, name, len))
        return s->vars[i];
  return NULL;
}

const pkf_dead *pkf_lookup_dead(pkf_ctx *c, const char *name, size_t len) {
  for (pkf_scope *s = c->scope; s; s = s->parent)
    for (int i = 0; i < s->nd; i++)
      if (name_eq(s->dead[i].name, name, len))
        return &s->dead[i];
  return NULL;
}

const char *pkf_fresh_name(pkf_ctx *c, const char *base) {
  size_t srclen = ts_node_end_byte(c->root);
  for (int k = 0;; k++) {
    const char *nm = k ? pki_sprintf(c->m->arena, "%s_it%d", base, k)
                       : pki_sprintf(c->m->arena, "%s_it", base);
    size_t n = strlen(nm);
    bool seen = false;
    for (const char *p = c->src; !seen && p + n <= c->src + srclen; p++)
      seen = *p == nm[0] && !memcmp(p, nm, n);
    for (int i = 0; !seen && c->fn && i < c->fn->nlocals; i++) /* made before (a swap's) */
      seen = !strcmp(c->fn->locals[i]->name, nm);
    if (!seen)
      return nm;
  }
}

/* ------------------------------------------------------------- import aliases */

const pkf_alias *pkf_alias_find(pkf_ctx *c, TSNode n) {
  if (!pkf_type_is(c, n, PKF_N_IDENTIFIER))
    return NULL;
  for (int i = c->nalias - 1; i >= 0; i--)
    if (pkf_is(c, n, c->aliases[i].local))
      return &c->aliases[i];
  return NULL;
}

bool pkf_alias_is(pkf_ctx *c, TSNode n, pkf_alias_kind kind) {
  const pkf_alias *a = pkf_alias_find(c, n);
  return a && a->kind == kind;
}
