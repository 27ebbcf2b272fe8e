/*
 * check.c - pki_check: the driver. Checks every function of every entity
 * (check_stmt.c, check_expr.c), then the whole-module rules: recursion
 * among device functions and access modes propagated through calls. Calls
 * into the other checker files only (nothing calls back).
 */
#include <string.h>

#include "check_priv.h"

/* Whether b (not loops nested in it) holds a break. */
static bool block_breaks(const pki_block *b) {
  for (int i = 0; i < b->n; i++) {
    const pki_stmt *s = b->stmts[i];
    if (s && (s->kind == PKI_S_BREAK ||
              (s->kind == PKI_S_IF && (block_breaks(&s->body) || block_breaks(&s->orelse)))))
      return true;
  }
  return false;
}

/* True if every path through b ends in a return (a `while True:` without a
 * break never ends). */
static bool block_returns(const pki_block *b) {
  for (int i = 0; i < b->n; i++) {
    const pki_stmt *s = b->stmts[i];
    if (!s)
      continue;
    if (s->kind == PKI_S_RETURN)
      return true;
    if (s->kind == PKI_S_IF && block_returns(&s->body) && block_returns(&s->orelse))
      return true;
    int64_t k;
    if (s->kind == PKI_S_WHILE && s->cond &&
        ((s->cond->kind == PKI_E_BOOL && s->cond->ival) ||
         (pki_const_int(s->cond, &k) && k != 0)) &&
        !block_breaks(&s->body))
      return true;
  }
  return false;
}

/* A non-void device function that can fall off its end returns 0 there, so
 * the generated C++ never reaches the end of a non-void function. */
static void ensure_return(pki_ck *c, pki_func *f) {
  if (!c->value_return)
    pki_warning(c->d, f->span, "missing-return",
                "device function '%s' is declared -> %s but never returns a value; "
                "it returns 0",
                f->name, pki_type_str(c->m->arena, f->ret));
  if (block_returns(&f->body) || !pki_is_numeric(f->ret.kind))
    return;
  if (c->value_return)
    pki_warning(c->d, f->span, "missing-return",
                "device function '%s' can reach its end without a return; Python returns "
                "None there, pkc returns 0: end it with a return", f->name);
  pki_expr *zero = pki_new_expr(c->m, PKI_E_INT, f->span);
  zero->type = pki_int_type;
  pki_stmt *r = pki_new_stmt(c->m, PKI_S_RETURN, f->span);
  r->value = pki_cast(c->m, zero, f->ret);
  pki_block_push(c->m->arena, &f->body, r);
}

static void reset_access(pki_var **vs, int n) {
  for (int i = 0; i < n; i++)
    if (vs[i])
      vs[i]->access = 0;
}

static void reset_func(pki_func *f, int depth) {
  if (!f || depth > 64)
    return;
  reset_access(f->params, f->nparams);
  if (f->acc)
    f->acc->access = 0;
  for (int i = 0; i < f->nclosures; i++)
    reset_func(f->closures[i], depth + 1);
}

/* Closures no statement referred to are still checked (in their scope). */
static void ck_rest_closures(pki_ck *c, pki_func *f) {
  for (int i = 0; i < f->nclosures; i++) {
    pki_func *g = f->closures[i];
    if (!g)
      continue;
    pki_func *f0 = c->f;
    c->f = f;
    pki_ck_closure(c, g);
    c->f = f0;
    ck_rest_closures(c, g);
  }
}

static void ck_func(pki_ck *c, pki_func *f) {
  c->f = f;
  c->value_return = false;
  pki_ck_body(c, f);
  if (!f->is_workunit && !f->is_main && !f->is_closure && f->ret.kind != PKI_VOID)
    ensure_return(c, f);
  ck_rest_closures(c, f);
}

/* Is `to` reachable from `from` along the recorded calls? (DFS, visited
 * functions kept in seen.) */
static bool reaches(pki_ck *c, pki_func *from, pki_func *to, pki_vec *seen) {
  if (from == to)
    return true;
  for (int i = 0; i < seen->n; i++)
    if (seen->items[i] == from)
      return false;
  pki_vec_push(c->m->arena, seen, from);
  for (int i = 0; i < c->calls.n; i++) {
    pki_ck_call *cl = PKI_AT(c->calls, i, pki_ck_call);
    if (cl->caller == from && reaches(c, cl->callee, to, seen))
      return true;
  }
  return false;
}

static void check_recursion(pki_ck *c) {
  for (int i = 0; i < c->calls.n; i++) {
    pki_ck_call *cl = PKI_AT(c->calls, i, pki_ck_call);
    pki_vec seen = {0};
    if (!cl->caller || !reaches(c, cl->callee, cl->caller, &seen))
      continue;
    if (cl->callee == cl->caller)
      pki_error(c->d, cl->span, "recursion",
                "recursion is not allowed in kernels: '%s' calls itself; rewrite it as a loop",
                cl->caller->name);
    else
      pki_error(c->d, cl->span, "recursion",
                "recursion is not allowed in kernels: '%s' calls '%s', which calls '%s' "
                "again; rewrite it as a loop",
                cl->caller->name, cl->callee->name, cl->caller->name);
  }
}

/* A View passed to a function is read/written as the callee's parameter is. */
static void propagate_access(pki_ck *c) {
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < c->passes.n; i++) {
      pki_ck_pass *p = PKI_AT(c->passes, i, pki_ck_pass);
      unsigned before = p->arg->access;
      pki_ck_mark(p->arg, p->param->access);
      changed = changed || p->arg->access != before;
    }
  }
}

int pki_check(pki_module *m, pki_diags *d) {
  int errors0 = d->errors;
  pki_ck c = {.m = m, .d = d};
  for (int i = 0; i < m->nentities; i++) {
    pki_entity *e = m->entities[i];
    if (!e)
      continue;
    reset_access(e->members, e->nmembers);
    for (int j = 0; j < e->nfuncs; j++)
      reset_func(e->funcs[j], 0);
  }
  for (int i = 0; i < m->nentities; i++) {
    pki_entity *e = m->entities[i];
    for (int j = 0; e && j < e->nfuncs; j++)
      if (e->funcs[j] && !e->funcs[j]->is_closure && !e->funcs[j]->runtime_typed)
        ck_func(&c, e->funcs[j]); /* runtime-typed: checked per specialization */
    if (e) {
      pki_ck_class_views(&c, e);
      pki_ck_init_order(&c, e);
    }
  }
  check_recursion(&c);
  pki_ck_names(&c);
  propagate_access(&c);
  pki_record_uses(m); /* pki_team_sync reads them */
  pki_team_sync(m, d);
  pki_record_uses(m); /* it may have added statements */
  return d->errors - errors0;
}
