/*
 * check.c - pki_check: the driver. Checks every function of every entity
 * (check_stmt.c, check_expr.c), then the whole-module rules: recursion
 * among device functions and access modes propagated through calls.
 */
#include <string.h>

#include "check_priv.h"

/* True if every path through b ends in a return. */
static bool block_returns(const pki_block *b) {
  for (int i = 0; i < b->n; i++) {
    const pki_stmt *s = b->stmts[i];
    if (!s)
      continue;
    if (s->kind == PKI_S_RETURN)
      return true;
    if (s->kind == PKI_S_IF && block_returns(&s->body) && block_returns(&s->orelse))
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

bool pki_ck_in_team(const pki_ck *c) {
  pki_func *r = pki_root_func(c->f);
  return r && r->is_workunit && r->policy == PKI_POLICY_TEAM;
}

bool pki_ck_in_main(const pki_ck *c) {
  for (pki_func *g = c->f; g; g = g->is_closure ? g->parent : NULL) {
    if (g->is_main)
      return true;
    if (g->is_closure && g->is_workunit)
      return false; /* a lambda kernel dispatched by @pk.main runs on the device */
  }
  return false;
}

pki_func *pki_ck_acc_owner(pki_ck *c, const pki_var *acc) {
  for (pki_func *g = c->f; g; g = g->is_closure ? g->parent : NULL)
    if (g->acc == acc)
      return g;
  return c->f;
}

/* A team workunit's first parameter is the pk.TeamMember. */
static void ck_team_index(pki_ck *c, pki_func *f) {
  pki_var *v = f->nindex == 1 ? f->index[0] : NULL;
  if (v && v->type.kind == PKI_VOID)
    v->type = pki_scalar(PKI_TEAM_MEMBER);
  if (v && v->type.kind == PKI_TEAM_MEMBER)
    return;
  pki_error(c->d, v ? v->span : f->span, "team-member",
            "TeamPolicy workunit '%s' takes one pk.TeamMember as its first parameter: "
            "def %s(m: pk.TeamMember, ...)",
            f->name, f->name);
}

/* Work indices are int64 (MDRange workunits: 2..6 of them). */
static void ck_indices(pki_ck *c, pki_func *f) {
  if (f->is_workunit && !f->is_closure && f->policy == PKI_POLICY_TEAM) {
    ck_team_index(c, f);
    return;
  }
  if (f->is_workunit && !f->is_closure && f->policy == PKI_POLICY_MDRANGE &&
      (f->nindex < 2 || f->nindex > 6))
    pki_error(c->d, f->span, "mdrange-rank",
              "MDRangePolicy workunit '%s' has %d index parameter%s; it needs 2 to 6 "
              "(def %s(i: int, j: int, ...))",
              f->name, f->nindex, f->nindex == 1 ? "" : "s", f->name);
  for (int i = 0; i < f->nindex; i++) {
    pki_var *v = f->index[i];
    if (!v)
      continue;
    if (v->type.kind == PKI_VOID || pki_is_int(v->type.kind))
      v->type = pki_int_type;
    else
      pki_error(c->d, v->span, "bad-index",
                "work index '%s' must be an int, not %s", v->name,
                pki_type_str(c->m->arena, v->type));
  }
}

/* Kokkos reduces values whose size is a multiple of an int's; Python's
 * `acc += flag` counts anyway (True + True == 2). */
static void ck_acc(pki_ck *c, pki_func *f) {
  if (!f->acc || f->acc->type.kind != PKI_BOOL)
    return;
  pki_error(c->d, f->acc->span, "bool-acc",
            "a bool accumulator cannot be reduced (Kokkos needs an int-sized value); "
            "declare '%s: pk.Acc[int]': %s += cond then counts, as in Python "
            "where True + True == 2",
            f->acc->name, f->acc->name);
}

static void ck_body(pki_ck *c, pki_func *f) {
  ck_indices(c, f);
  ck_acc(c, f);
  if (f->final && f->final->type.kind == PKI_VOID)
    f->final->type = pki_bool_type;
  pki_ck_block(c, &f->body);
}

static bool is_done(pki_ck *c, pki_func *g) {
  for (int i = 0; i < c->done.n; i++)
    if (c->done.items[i] == g)
      return true;
  return false;
}

void pki_ck_closure(pki_ck *c, pki_func *g) {
  if (!g || is_done(c, g))
    return;
  pki_vec_push(c->m->arena, &c->done, g);
  pki_func *f0 = c->f;
  bool vr0 = c->value_return;
  c->f = g;
  ck_body(c, g);
  c->f = f0;
  c->value_return = vr0;
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
  ck_body(c, f);
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
    if (e)
      pki_ck_class_views(&c, e);
  }
  check_recursion(&c);
  pki_ck_names(&c);
  propagate_access(&c);
  pki_record_uses(m); /* pki_team_sync reads them */
  pki_team_sync(m, d);
  pki_record_uses(m); /* it may have added statements */
  return d->errors - errors0;
}
