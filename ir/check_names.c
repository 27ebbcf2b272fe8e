/*
 * check_names.c - one C++ name per Python definition.
 *
 * Python lets a later `def k` replace an earlier one; the generated C++
 * cannot (two `struct k` do not compile), and keeping either one silently
 * would run code the program does not mean. So two definitions that become
 * one C++ name are an error at both, each naming the other: top-level
 * workunits, functions, functors, workloads and classtypes share the
 * module's namespace; the data members and methods of one class share its
 * struct.
 */
#include "check_priv.h"

#include <string.h>

typedef struct named {
  const char *name;
  const char *what; /* "workunit", "data member", ... */
  pki_span span;
} named;

static const char *entity_word(pki_entity_kind k) {
  switch (k) {
  case PKI_ENT_WORKUNIT: return "workunit";
  case PKI_ENT_FUNCTION: return "@pk.function";
  case PKI_ENT_FUNCTOR: return "functor";
  case PKI_ENT_WORKLOAD: return "workload";
  case PKI_ENT_CLASSTYPE: return "classtype";
  }
  return "definition";
}

static const char *func_word(const pki_func *f) {
  if (f->is_main)
    return "@pk.main";
  if (f->is_workunit)
    return "workunit";
  return f->is_method || f->is_ctor ? "method" : "@pk.function";
}

static void report(pki_diags *d, const named *a, const named *b, const char *scope) {
  const named *pair[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    const named *self = pair[k], *other = pair[1 - k];
    pki_error(d, self->span, "duplicate-name",
              "%s '%s' %s is also defined as a %s at line %d; the generated C++ can "
              "hold only one: rename one of them",
              self->what, self->name, scope, other->what, other->span.line);
  }
}

/* Reports every pair of equal names among xs[0..n) (first occurrence vs each later). */
static void check_set(pki_diags *d, const named *xs, int n, const char *scope) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (!strcmp(xs[i].name, xs[j].name)) {
        report(d, &xs[j], &xs[i], scope);
        break;
      }
}

static void check_entity(pki_ck *c, const pki_entity *e) {
  if (e->kind == PKI_ENT_WORKUNIT || e->kind == PKI_ENT_FUNCTION)
    return; /* one def, no struct of its own to share */
  int n = 0, cap = e->nmembers + e->nfuncs;
  named *xs = pki_alloc(c->m->arena, sizeof *xs * (size_t)(cap ? cap : 1));
  for (int i = 0; i < e->nmembers; i++)
    if (e->members[i])
      xs[n++] = (named){e->members[i]->name, "data member", e->members[i]->span};
  for (int i = 0; i < e->nfuncs; i++)
    if (e->funcs[i] && !e->funcs[i]->is_closure)
      xs[n++] = (named){e->funcs[i]->name, func_word(e->funcs[i]), e->funcs[i]->span};
  check_set(c->d, xs, n, pki_sprintf(c->m->arena, "of %s '%s'", entity_word(e->kind), e->name));
}

void pki_ck_names(pki_ck *c) {
  pki_module *m = c->m;
  named *xs = pki_alloc(m->arena, sizeof *xs * (size_t)(m->nentities ? m->nentities : 1));
  int n = 0;
  for (int i = 0; i < m->nentities; i++) {
    pki_entity *e = m->entities[i];
    if (!e)
      continue;
    xs[n++] = (named){e->name, entity_word(e->kind), e->span};
    check_entity(c, e);
  }
  check_set(c->d, xs, n, "in this file");
}
