/*
 * ir_build.h - tiny helpers to build IR by hand in unit tests (header-only,
 * static functions; included by test_check.c and test_print.c).
 */
#ifndef PKC_TEST_IR_BUILD_H
#define PKC_TEST_IR_BUILD_H

#include <string.h>

#include "ir.h"

static inline pki_span sp(int line, int col) {
  return (pki_span){.line = (uint32_t)line, .col = (uint32_t)col,
                    .end_line = (uint32_t)line, .end_col = (uint32_t)col + 1};
}

static inline pki_module *mk_module(void) {
  return pki_module_new("tests/t.py", NULL, "", 0);
}

static inline pki_expr *e_int(pki_module *m, long long v) {
  pki_expr *e = pki_new_expr(m, PKI_E_INT, sp(1, 1));
  e->ival = v;
  return e;
}

static inline pki_expr *e_float(pki_module *m, double v) {
  pki_expr *e = pki_new_expr(m, PKI_E_FLOAT, sp(1, 1));
  e->fval = v;
  return e;
}

static inline pki_expr *e_bool(pki_module *m, int v) {
  pki_expr *e = pki_new_expr(m, PKI_E_BOOL, sp(1, 1));
  e->ival = v;
  return e;
}

static inline pki_expr *e_str(pki_module *m, const char *s) {
  pki_expr *e = pki_new_expr(m, PKI_E_STR, sp(1, 1));
  e->str = pki_strdup(m->arena, s);
  return e;
}

static inline pki_expr *e_var(pki_module *m, pki_var *v) {
  pki_expr *e = pki_new_expr(m, PKI_E_VAR, sp(1, 1));
  e->var = v;
  return e;
}

static inline pki_expr *e_bin(pki_module *m, pki_expr_kind k, pki_op op, pki_expr *a,
                              pki_expr *b) {
  pki_expr *e = pki_new_expr_n(m, k, sp(1, 1), 2);
  e->op = op;
  e->args[0] = a;
  e->args[1] = b;
  return e;
}
#define BIN(m, op, a, b) e_bin(m, PKI_E_BINARY, op, a, b)
#define CMP(m, op, a, b) e_bin(m, PKI_E_COMPARE, op, a, b)

static inline pki_expr *e_index(pki_module *m, pki_var *view, int n, pki_expr **idx) {
  pki_expr *e = pki_new_expr_n(m, PKI_E_INDEX, sp(1, 1), n + 1);
  e->args[0] = e_var(m, view);
  for (int i = 0; i < n; i++)
    e->args[i + 1] = idx[i];
  return e;
}
static inline pki_expr *e_index1(pki_module *m, pki_var *view, pki_expr *i) {
  return e_index(m, view, 1, &i);
}

static inline pki_expr *e_call(pki_module *m, pki_func *f, int n, pki_expr **args,
                               pki_span at) {
  pki_expr *e = pki_new_expr_n(m, PKI_E_CALL, at, n);
  e->func = f;
  for (int i = 0; i < n; i++)
    e->args[i] = args[i];
  return e;
}

static inline pki_expr *e_builtin(pki_module *m, pki_builtin b, int n, pki_expr **args) {
  pki_expr *e = pki_new_expr_n(m, PKI_E_BUILTIN, sp(1, 1), n);
  e->builtin = b;
  for (int i = 0; i < n; i++)
    e->args[i] = args[i];
  return e;
}

static inline pki_stmt *s_decl(pki_module *m, pki_func *f, pki_var *v, pki_expr *value,
                               pki_span at) {
  pki_stmt *s = pki_new_stmt(m, PKI_S_DECL, at);
  s->var = v;
  s->value = value;
  pki_func_add_local(m, f, v);
  pki_block_push(m->arena, &f->body, s);
  return s;
}

static inline pki_stmt *s_assign(pki_module *m, pki_block *b, pki_stmt_kind k, pki_op op,
                                 pki_expr *target, pki_expr *value, pki_span at) {
  pki_stmt *s = pki_new_stmt(m, k, at);
  s->op = op;
  s->target = target;
  s->value = value;
  pki_block_push(m->arena, b, s);
  return s;
}

static inline pki_stmt *s_push(pki_module *m, pki_block *b, pki_stmt *s) {
  pki_block_push(m->arena, b, s);
  return s;
}

/* A FunctionSty workunit `name(i, ...)` in its own entity. */
static inline pki_func *mk_workunit(pki_module *m, const char *name, pki_pattern pat) {
  pki_entity *e = pki_new_entity(m, PKI_ENT_WORKUNIT, name, sp(1, 1));
  pki_func *f = pki_new_func(m, name, sp(2, 5));
  f->is_workunit = true;
  f->pattern = pat;
  pki_func_add_index(m, f, pki_new_var(m, "i", PKI_VAR_INDEX, pki_int_type, sp(2, 14)));
  pki_entity_add_func(m, e, f);
  pki_module_add_entity(m, e);
  return f;
}

/* A top-level @pk.function `name -> ret` (ret VOID: none). */
static inline pki_func *mk_function(pki_module *m, const char *name, pki_type ret) {
  pki_entity *e = pki_new_entity(m, PKI_ENT_FUNCTION, name, sp(1, 1));
  pki_func *f = pki_new_func(m, name, sp(10, 5));
  f->ret = ret;
  f->ret_annotated = ret.kind != PKI_VOID;
  pki_entity_add_func(m, e, f);
  pki_module_add_entity(m, e);
  return f;
}

static inline pki_var *add_param(pki_module *m, pki_func *f, const char *name, pki_type t) {
  pki_var *v = pki_new_var(m, name, PKI_VAR_PARAM, t, sp(2, 20));
  v->annotated = true;
  pki_func_add_param(m, f, v);
  return v;
}

static inline pki_var *local(pki_module *m, const char *name, pki_type t) {
  return pki_new_var(m, name, PKI_VAR_LOCAL, t, sp(3, 5));
}

/* ---------------------------------------------------- dialect helpers */

static inline pki_expr *e_intr(pki_module *m, pki_intrinsic k, int n, pki_expr **args,
                               pki_span at) {
  pki_expr *e = pki_new_expr_n(m, PKI_E_INTRINSIC, at, n);
  e->intrinsic = k;
  for (int i = 0; i < n; i++)
    e->args[i] = args[i];
  return e;
}

/* An expression statement (a call or intrinsic for its effect). */
static inline pki_stmt *s_expr(pki_module *m, pki_block *b, pki_expr *e, pki_span at) {
  pki_stmt *s = pki_new_stmt(m, PKI_S_EXPR, at);
  s->value = e;
  return s_push(m, b, s);
}

/* A TeamPolicy workunit `name(m: pk.TeamMember, ...)` in its own entity. */
static inline pki_func *mk_team_workunit(pki_module *m, const char *name, pki_pattern pat) {
  pki_func *f = mk_workunit(m, name, pat);
  f->policy = PKI_POLICY_TEAM;
  f->index[0]->name = "m";
  f->index[0]->type = pki_scalar(PKI_TEAM_MEMBER);
  return f;
}

/* A nested def inside parent with index names idx[0..nidx) (int64) and an
 * accumulator acc_name (NULL: none) of type acc. */
static inline pki_func *mk_closure(pki_module *m, pki_func *parent, const char *name, int nidx,
                                   const char *const *idx, const char *acc_name, pki_type acc) {
  pki_func *g = pki_new_func(m, name, sp(20, 9));
  g->is_closure = true;
  for (int i = 0; i < nidx; i++)
    pki_func_add_index(m, g, pki_new_var(m, idx[i], PKI_VAR_INDEX, pki_void_type, sp(20, 15)));
  if (acc_name)
    g->acc = pki_new_var(m, acc_name, PKI_VAR_ACC, acc, sp(20, 18));
  pki_func_add_closure(m, parent, g);
  return g;
}

/* A NESTED/SINGLE/DISPATCH statement with args. */
static inline pki_stmt *s_par(pki_module *m, pki_block *b, pki_stmt_kind k, int pattern,
                              int range, pki_func *closure, int n, pki_expr **args,
                              pki_expr *target, pki_span at) {
  pki_stmt *s = pki_new_stmt(m, k, at);
  s->pattern = pattern;
  s->range = range;
  s->closure = closure;
  s->target = target;
  s->nargs = n;
  if (n > 0)
    s->args = pki_alloc(m->arena, sizeof(pki_expr *) * (size_t)n);
  for (int i = 0; i < n; i++)
    s->args[i] = args[i];
  return s_push(m, b, s);
}

static inline pki_expr *e_list(pki_module *m, int n, pki_expr **items) {
  pki_expr *e = pki_new_expr_n(m, PKI_E_LIST, sp(1, 1), n);
  for (int i = 0; i < n; i++)
    e->args[i] = items[i];
  return e;
}

#endif
