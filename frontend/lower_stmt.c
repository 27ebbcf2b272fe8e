/*
 * lower_stmt.c - Python statements to pki_stmt under C++ block scoping:
 * declarations (annotated or first assignment), assignments to names and
 * View elements, augmented assignments, if/elif/else, for-range, while,
 * break/continue, return, call statements and pk.printf.
 */
#include "fe.h"

#include <stdlib.h>

static void lower_stmt(pkf_ctx *c, TSNode n, pki_block *out);

static void stmt_error(pkf_ctx *c, TSNode n, const char *msg) {
  pki_error(c->d, pkf_span(n), "unsupported-statement", "%s", msg);
}

static void push(pkf_ctx *c, pki_block *out, pki_stmt *s) { pki_block_push(c->m->arena, out, s); }

static void lower_in_scope(pkf_ctx *c, TSNode block, pki_block *out, const char *construct,
                           pki_span at) {
  pkf_scope s;
  pkf_scope_push(c, &s, construct, at);
  pkf_lower_body(c, block, out);
  pkf_scope_pop(c);
}

/* A string as the first statement of a body: its docstring. */
static bool is_docstring(pkf_ctx *c, TSNode st) {
  if (!pkf_type_is(c, st, PKF_N_EXPRESSION_STATEMENT))
    return false;
  pkf_nodes ch = pkf_children(c, st);
  return ch.n == 1 && (pkf_type_is(c, ch.v[0], PKF_N_STRING) ||
                       pkf_type_is(c, ch.v[0], PKF_N_CONCATENATED_STRING));
}

void pkf_lower_body(pkf_ctx *c, TSNode block, pki_block *out) {
  pkf_nodes st = pkf_children(c, block);
  for (uint32_t i = 0; i < st.n; i++)
    if (i > 0 || !is_docstring(c, st.v[i]))
      lower_stmt(c, st.v[i], out);
}

/* ------------------------------------------------------------ targets */

static void member_write(pkf_ctx *c, TSNode n) {
  pki_error(c->d, pkf_span(n), "member-write",
            "cannot assign to '%s': functor data is read-only in kernels; use a View "
            "member to return data", pkf_text(c, n));
}

/* Reports writes to read-only variables; returns true if v may be written. */
static bool writable(pkf_ctx *c, TSNode at, pki_var *v) {
  const char *why = NULL;
  if (v->kind == PKI_VAR_INDEX && v->type.kind == PKI_TEAM_MEMBER)
    why = "the team member is read-only";
  else if (v->kind == PKI_VAR_FINAL)
    why = "the scan's final flag is read-only";
  else if (v->kind == PKI_VAR_PARAM && pki_root_func(c->fn)->is_workunit)
    why = "kernel arguments are read-only in kernels; copy it into a local first, or use "
          "a View to return data";
  if (!why)
    return true;
  if (v->type.kind == PKI_VOID && v->annotated && c->d->errors > 0)
    return false; /* a parameter whose annotation was rejected (said there) */
  pki_error(c->d, pkf_span(at), "read-only", "cannot assign to '%s': %s", v->name, why);
  return false;
}

/* The target of an assignment to an existing name, a View element or a member. */
pki_expr *pkf_target(pkf_ctx *c, TSNode left) {
  if (pkf_type_is(c, left, PKF_N_SUBSCRIPT)) {
    pki_expr *e = pkf_subscript(c, left);
    if (e && e->kind != PKI_E_INDEX) {
      stmt_error(c, left, "cannot assign to a subview; assign its elements, e.g. 'row[j] = x'");
      return NULL;
    }
    return e;
  }
  pki_expr *r; /* entities helper: self.x in ctor/main, classtype fields */
  if (pkf_ent_target(c, left, &r))
    return r;
  if (pkf_is_self_attr(c, left)) {
    member_write(c, left);
    return NULL;
  }
  if (pkf_type_is(c, left, PKF_N_IDENTIFIER)) {
    uint32_t s = ts_node_start_byte(left);
    pki_var *v = pkf_lookup(c, c->src + s, ts_node_end_byte(left) - s), *m;
    if (!v && (m = pkf_bare_member(c, left)))
      return pkf_bare_member_target(c, left, m);
    if (!v) {
      pkf_unknown_name(c, left);
      return NULL;
    }
    if (!pkf_own_var(c, v) && !pkf_is_nonlocal(c, v)) {
      pki_error(c->d, pkf_span(left), "closure-write",
                "nested function '%s' cannot assign the outer variable '%s'; declare it "
                "with 'nonlocal %s' at the top of '%s'", c->fn->name, v->name, v->name,
                c->fn->name);
      return NULL;
    }
    if (!writable(c, left, v))
      return NULL;
    pki_expr *e = pki_new_expr(c->m, PKI_E_VAR, pkf_span(left));
    e->var = v;
    return e;
  }
  if (pkf_type_is(c, left, PKF_N_PATTERN_LIST) || pkf_type_is(c, left, PKF_N_TUPLE_PATTERN) ||
      pkf_type_is(c, left, PKF_N_LIST_PATTERN) || pkf_type_is(c, left, PKF_N_TUPLE) ||
      pkf_type_is(c, left, PKF_N_LIST))
    stmt_error(c, left, "tuple assignment is not supported in kernels; assign each variable "
                        "in its own statement");
  else
    stmt_error(c, left, "this assignment target is not supported in kernels; assign to a "
                        "variable or a View element");
  return NULL;
}

static pki_var *new_local(pkf_ctx *c, TSNode name, pki_type t, bool annotated) {
  pki_var *v = pki_new_var(c->m, pkf_text(c, name), PKI_VAR_LOCAL, t, pkf_span(name));
  v->annotated = annotated;
  pki_func_add_local(c->m, c->fn, v);
  pkf_scope_bind(c, v);
  return v;
}

/* -------------------------------------------------------- assignments */

/* A View-typed local: a scratch view (its type is the annotation) or a
 * subview (its type is the subview's). */
static bool view_local(pkf_ctx *c, TSNode right, pki_expr *value, pki_type *t) {
  bool scratch = t->space == PKI_SPACE_SCRATCH;
  pki_intrinsic want = scratch ? PKI_INTRINSIC_SCRATCH_VIEW : PKI_INTRINSIC_SUBVIEW;
  if (value->kind != PKI_E_INTRINSIC || value->intrinsic != want) {
    pki_error(c->d, pkf_span(right), "unsupported-type",
              scratch ? "a scratch view must be initialised with "
                        "pk.ScratchViewND(m.team_scratch(level), n0, ...)"
                      : "a View local must be initialised with a subview of a View, e.g. "
                        "A[i, :] or pk.subview(A, i, slice(None))");
    return false;
  }
  if (value->type.kind == PKI_VIEW && value->type.rank != t->rank) {
    pki_error(c->d, pkf_span(right), "rank-mismatch",
              "this %s has rank %d but the annotation says rank %d",
              scratch ? "scratch view" : "subview", value->type.rank, t->rank);
    return false;
  }
  if (scratch)
    value->type = *t;
  else if (value->type.kind == PKI_VIEW)
    *t = value->type;
  return true;
}

static void annotated_decl(pkf_ctx *c, TSNode n, TSNode left, TSNode ann, TSNode right,
                           pki_block *out) {
  if (pkf_is_self_attr(c, left)) {
    member_write(c, left);
    return;
  }
  if (!pkf_type_is(c, left, PKF_N_IDENTIFIER)) {
    stmt_error(c, left, "only a plain name can be declared with an annotation");
    return;
  }
  uint32_t s0 = ts_node_start_byte(left);
  pki_var *old = pkf_lookup(c, c->src + s0, ts_node_end_byte(left) - s0);
  pki_type again;
  if (old && !ts_node_is_null(right) && old->kind == PKI_VAR_LOCAL && pkf_own_var(c, old) &&
      old->type.kind != PKI_VOID && pki_is_numeric(old->type.kind) &&
      pkf_type(c, ann, false, &again) && pki_type_eq(again, old->type)) {
    pki_expr *value = pkf_expr(c, right); /* `y: int = 4` again: Python assigns y */
    if (!value)
      return;
    pki_stmt *s = pki_new_stmt(c->m, PKI_S_ASSIGN, pkf_span(n));
    s->target = pki_new_expr(c->m, PKI_E_VAR, pkf_span(left));
    s->target->var = old;
    s->value = value;
    push(c, out, s);
    return;
  }
  if (old) {
    pki_error(c->d, pkf_span(left), "redeclaration",
              "'%s' is already declared at %u:%u; assign to it without an annotation",
              old->name, old->span.line, old->span.col);
    return;
  }
  pki_type t;
  bool ok = pkf_type(c, ann, false, &t);
  if (ok && t.kind == PKI_ARRAY) {
    pki_expr *lst = ts_node_is_null(right) ? NULL
                    : t.rank < 0 ? pkf_matrix_literal(c, right, t.elem)
                                 : pkf_list_literal(c, right, t.elem);
    if (ts_node_is_null(right))
      pki_error(c->d, pkf_span(n), "bad-list",
                "a typing.List local needs a list literal initializer, e.g. [0.0, 0.0]");
    if (!lst) {
      pkf_scope_reject(c, left); /* its uses: no second error */
      return;
    }
    pki_stmt *s = pki_new_stmt(c->m, PKI_S_DECL, pkf_span(n));
    s->var = new_local(c, left, lst->type, true);
    s->value = lst;
    push(c, out, s);
    return;
  }
  bool view_ok = t.kind == PKI_VIEW && !ts_node_is_null(right);
  if (ok && (t.kind == PKI_VOID || (t.kind == PKI_VIEW && !view_ok) || t.kind == PKI_POOL ||
             t.kind == PKI_TEAM_MEMBER)) {
    pki_error(c->d, pkf_span(ann), "unsupported-type",
              "local variables must have a scalar type (int, float, bool, pk.int32, ...)%s",
              t.kind == PKI_VIEW ? "; a View local must be initialised with a subview or "
                                   "pk.ScratchViewND(...)" : "");
    ok = false;
  }
  pki_expr *value = !ok || ts_node_is_null(right) ? NULL : pkf_expr(c, right);
  if (!ok || (!ts_node_is_null(right) && !value)) { /* (a bad type: one error, not two) */
    pkf_scope_reject(c, left);
    return;
  }
  if (t.kind == PKI_VIEW && !view_local(c, right, value, &t))
    return;
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_DECL, pkf_span(n));
  s->var = new_local(c, left, t, true);
  s->value = value;
  push(c, out, s);
}

/* `name = value` for a name not bound yet (a new local typed by its value)
 * or `target = value`; value already lowered. */
static void assign_value(pkf_ctx *c, TSNode n, TSNode left, pki_expr *value, pki_block *out);
static void assign_to(pkf_ctx *c, TSNode n, pki_expr *t, pki_expr *value, pki_block *out);

/* Whether identifier left names nothing bound yet (an assignment declares it). */
static bool new_name(pkf_ctx *c, TSNode left) {
  uint32_t s0 = ts_node_start_byte(left);
  return !pkf_lookup(c, c->src + s0, ts_node_end_byte(left) - s0) && !pkf_bare_member(c, left);
}

static bool is_sequence(pkf_ctx *c, TSNode n) {
  return pkf_type_is(c, n, PKF_N_PATTERN_LIST) || pkf_type_is(c, n, PKF_N_TUPLE_PATTERN) ||
         pkf_type_is(c, n, PKF_N_LIST_PATTERN) || pkf_type_is(c, n, PKF_N_TUPLE) ||
         pkf_type_is(c, n, PKF_N_LIST) || pkf_type_is(c, n, PKF_N_EXPRESSION_LIST);
}

/* Whether an identifier under n is spelled `name` (or, name NULL, as one
 * under names). */
static bool mentions(pkf_ctx *c, TSNode n, const char *name, TSNode names, int depth) {
  if (depth > 64)
    return true;
  if (pkf_type_is(c, n, PKF_N_IDENTIFIER))
    return name ? pkf_is(c, n, name) : mentions(c, names, pkf_text(c, n), names, 0);
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++)
    if (mentions(c, kids.v[i], name, names, depth + 1))
      return true;
  return false;
}

/* a, b = x, y (and [a, b] = ..., a, b = b, a): Python evaluates every value
 * before it assigns any, so where a value reads a name the targets spell,
 * the values go to fresh locals first (a swap); elsewhere each target is
 * assigned its value in turn. Unpacking anything but as many values written
 * out is rejected. */
static bool tuple_assignment(pkf_ctx *c, TSNode n, TSNode left, TSNode right, pki_block *out) {
  if (!is_sequence(c, left))
    return false;
  pkf_nodes t = pkf_named_children(c, left), v = pkf_named_children(c, right);
  bool starred = false;
  for (uint32_t i = 0; i < t.n; i++)
    starred |= pkf_type_is(c, t.v[i], PKF_N_LIST_SPLAT_PATTERN) || is_sequence(c, t.v[i]);
  for (uint32_t i = 0; is_sequence(c, right) && i < v.n; i++)
    starred |= pkf_type_is(c, v.v[i], PKF_N_LIST_SPLAT);
  if (!is_sequence(c, right) || starred || t.n != v.n || t.n == 0) {
    for (uint32_t i = 0; i < t.n; i++)
      if (new_name(c, t.v[i]))
        pkf_scope_reject(c, t.v[i]);
    if (is_sequence(c, right) && !starred)
      pki_error(c->d, pkf_span(left), "unsupported-statement",
                "this assignment unpacks %u values into %u targets; give as many values as "
                "targets", v.n, t.n);
    else
      stmt_error(c, left, "tuple assignment in kernels takes values written out, one per "
                          "target (a, b = x, y); assign each variable in its own statement");
    return true;
  }
  pki_expr **vals = pki_alloc(c->m->arena, sizeof *vals * t.n);
  bool ok = true;
  for (uint32_t i = 0; i < v.n; i++)
    ok &= (vals[i] = pkf_expr(c, v.v[i])) != NULL;
  for (uint32_t i = 0; i < t.n && !ok; i++)
    if (pkf_type_is(c, t.v[i], PKF_N_IDENTIFIER) && new_name(c, t.v[i]))
      pkf_scope_reject(c, t.v[i]);
  if (!ok)
    return true;
  if (mentions(c, right, NULL, left, 0))
    for (uint32_t i = 0; i < t.n; i++) { /* the values first, in fresh locals */
      const char *base = pkf_type_is(c, t.v[i], PKF_N_IDENTIFIER) ? pkf_text(c, t.v[i]) : "value";
      pki_var *tmp = pki_new_var(c->m, pkf_fresh_name(c, base), PKI_VAR_LOCAL, pki_void_type,
                                 pkf_span(v.v[i]));
      pki_func_add_local(c->m, c->fn, tmp);
      pki_stmt *s = pki_new_stmt(c->m, PKI_S_DECL, pkf_span(n));
      s->var = tmp;
      s->value = vals[i];
      push(c, out, s);
      vals[i] = pki_new_expr(c->m, PKI_E_VAR, pkf_span(v.v[i]));
      vals[i]->var = tmp;
    }
  for (uint32_t i = 0; i < t.n; i++)
    assign_value(c, n, t.v[i], vals[i], out);
  return true;
}

static void assignment(pkf_ctx *c, TSNode n, pki_block *out) {
  TSNode left = pkf_field(c, n, PKF_F_LEFT), right = pkf_field(c, n, PKF_F_RIGHT),
         ann = pkf_field(c, n, PKF_F_TYPE);
  if (pkf_type_is(c, right, PKF_N_ASSIGNMENT)) {
    /* a = b = v: b = v first, then a = b (v evaluated once) */
    if (!ts_node_is_null(ann) || !ts_node_is_null(pkf_field(c, right, PKF_F_TYPE))) {
      stmt_error(c, n, "annotations are not allowed in a chained assignment; annotate "
                       "each name in a statement of its own");
      return;
    }
    assignment(c, right, out);
    right = pkf_field(c, right, PKF_F_LEFT);
    if (pkf_type_is(c, right, PKF_N_PATTERN_LIST) || pkf_type_is(c, right, PKF_N_TUPLE_PATTERN))
      return; /* reported by the inner assignment */
  }
  if (!ts_node_is_null(ann) && !ts_node_is_null(right) &&
      pkf_nested_assign(c, n, left, ann, right, out))
    return;
  if (!ts_node_is_null(ann)) {
    annotated_decl(c, n, left, ann, right, out);
    return;
  }
  if (ts_node_is_null(right))
    return;
  if (pkf_nested_assign(c, n, left, ann, right, out))
    return;
  if (tuple_assignment(c, n, left, right, out))
    return;
  pki_expr *value;
  if (pkf_type_is(c, left, PKF_N_IDENTIFIER) && new_name(c, left)) {
    if ((value = pkf_expr(c, right))) /* a new local: its type is the value's */
      assign_value(c, n, left, value, out);
    else
      pkf_scope_reject(c, left);
    return;
  }
  pki_expr *t = pkf_target(c, left);
  if (t && (value = pkf_expr(c, right)))
    assign_to(c, n, t, value, out);
}

static void assign_value(pkf_ctx *c, TSNode n, TSNode left, pki_expr *value, pki_block *out) {
  if (pkf_type_is(c, left, PKF_N_IDENTIFIER)) {
    if (new_name(c, left)) {
      bool typed = value->kind == PKI_E_INTRINSIC && value->type.kind != PKI_VOID;
      if (typed && value->intrinsic == PKI_INTRINSIC_SCRATCH_VIEW && value->type.elem == PKI_VOID)
        value->type.elem = PKI_F64; /* unannotated: PyKokkos' default element type, double */
      pki_type t = typed ? value->type : pki_void_type;
      if ((value->kind == PKI_E_CONSTRUCT && value->type.kind == PKI_CLASS) ||
          (value->kind == PKI_E_CALL && value->func && value->func->ret.kind == PKI_CLASS))
        t = value->kind == PKI_E_CALL ? value->func->ret : value->type; /* p = mk(...) */
      pki_stmt *s = pki_new_stmt(c->m, PKI_S_DECL, pkf_span(n));
      s->var = new_local(c, left, t, false);
      s->value = value;
      push(c, out, s);
      return;
    }
  }
  pki_expr *t = pkf_target(c, left);
  if (t)
    assign_to(c, n, t, value, out);
}

static void assign_to(pkf_ctx *c, TSNode n, pki_expr *t, pki_expr *value, pki_block *out) {
  pki_expr *rest;
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_ASSIGN, pkf_span(n));
  if (t->kind == PKI_E_VAR && t->var->kind == PKI_VAR_ACC &&
      (rest = pkf_acc_sum_rest(c, value, t->var))) { /* acc = acc + x: acc += x */
    s->kind = PKI_S_AUGASSIGN;
    s->op = PKI_OP_ADD;
    value = rest;
  }
  s->target = t;
  s->value = value;
  push(c, out, s);
}

pki_expr *pkf_acc_sum_rest(pkf_ctx *c, pki_expr *e, const pki_var *acc) {
  if (e->kind != PKI_E_BINARY || (e->op != PKI_OP_ADD && e->op != PKI_OP_SUB))
    return NULL;
  pki_expr *l = e->args[0];
  if (l->kind == PKI_E_VAR && l->var == acc) {
    if (e->op == PKI_OP_ADD)
      return e->args[1];
    pki_expr *neg = pki_new_expr_n(c->m, PKI_E_UNARY, e->span, 1);
    neg->op = PKI_OP_NEG;
    neg->args[0] = e->args[1];
    return neg;
  }
  pki_expr *r = pkf_acc_sum_rest(c, l, acc);
  if (!r)
    return NULL;
  pki_expr *b = pki_new_expr_n(c->m, PKI_E_BINARY, e->span, 2);
  b->op = e->op;
  b->args[0] = r;
  b->args[1] = e->args[1];
  return b;
}

static const struct {
  const char *text;
  pki_op op;
} augops[] = {{"+=", PKI_OP_ADD},     {"-=", PKI_OP_SUB},       {"*=", PKI_OP_MUL},
              {"/=", PKI_OP_DIV},     {"//=", PKI_OP_FLOORDIV}, {"%=", PKI_OP_MOD},
              {"**=", PKI_OP_POW},    {"&=", PKI_OP_BITAND},    {"|=", PKI_OP_BITOR},
              {"^=", PKI_OP_BITXOR},  {"<<=", PKI_OP_SHL},      {">>=", PKI_OP_SHR}};

static void aug_assignment(pkf_ctx *c, TSNode n, pki_block *out) {
  TSNode tok = pkf_field(c, n, PKF_F_OPERATOR);
  pki_op op = PKI_OP_NONE;
  for (size_t i = 0; i < sizeof augops / sizeof augops[0]; i++)
    if (pkf_is(c, tok, augops[i].text))
      op = augops[i].op;
  if (op == PKI_OP_NONE) {
    stmt_error(c, tok, "the '@=' operator is not supported in kernels");
    return;
  }
  pki_expr *t = pkf_target(c, pkf_field(c, n, PKF_F_LEFT)),
           *value = pkf_expr(c, pkf_field(c, n, PKF_F_RIGHT));
  if (!t || !value)
    return;
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_AUGASSIGN, pkf_span(n));
  s->op = op;
  s->target = t;
  s->value = value;
  push(c, out, s);
}

/* ---------------------------------------------------------- printf, calls */

/* A string literal as a PKI_E_STR (Python escapes decoded: strings.c); its
 * byte length, NULs included, in *len. */
static pki_expr *format_string(pkf_ctx *c, TSNode n, const char *what, size_t *len) {
  if (!pkf_type_is(c, n, PKF_N_STRING) && !pkf_type_is(c, n, PKF_N_CONCATENATED_STRING)) {
    pki_error(c->d, pkf_span(n), "bad-printf",
              "pk.printf's first argument must be a string literal (the format)");
    return NULL;
  }
  char *buf = pkf_string_text(c, n, what, len);
  if (!buf)
    return NULL;
  pki_expr *e = pki_new_expr(c->m, PKI_E_STR, pkf_span(n));
  e->str = buf;
  return e;
}

static void printf_stmt(pkf_ctx *c, TSNode call, pki_block *out) {
  pkf_nodes ch = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  if (ch.n == 0) {
    pki_error(c->d, pkf_span(call), "bad-printf", "pk.printf needs a format string");
    return;
  }
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_PRINTF, pkf_span(call));
  s->args = pki_alloc(c->m->arena, sizeof *s->args * ch.n);
  s->nargs = (int)ch.n;
  size_t len = 0;
  bool ok = (s->args[0] = format_string(c, ch.v[0], "pk.printf formats", &len)) != NULL;
  for (uint32_t i = 1; i < ch.n; i++)
    ok &= (s->args[i] = pkf_expr(c, ch.v[i])) != NULL;
  if (ok && pkf_printf_nuls(c, s, len))
    push(c, out, s);
}

static bool is_pk_printf(pkf_ctx *c, TSNode call) {
  TSNode fn = pkf_field(c, call, PKF_F_FUNCTION);
  const pkf_alias *a = pkf_alias_find(c, fn); /* from pykokkos import printf */
  if (a && a->kind == PKF_AL_PKNAME && !strcmp(a->orig, "printf"))
    return true;
  if (!a && pkf_is(c, fn, "printf") && !pkf_lookup(c, "printf", 6))
    return true; /* `from pykokkos import *`, or none: C++ finds printf, as for PyKokkos */
  return pkf_type_is(c, fn, PKF_N_ATTRIBUTE) &&
         pkf_alias_is(c, pkf_field(c, fn, PKF_F_OBJECT), PKF_AL_PK) &&
         pkf_is(c, pkf_field(c, fn, PKF_F_ATTRIBUTE), "printf");
}

void pkf_lower_call_stmt(pkf_ctx *c, TSNode call, pki_block *out) {
  if (pkf_type_is(c, call, PKF_N_CALL) && is_pk_printf(c, call)) {
    printf_stmt(c, call, out);
    return;
  }
  pki_expr *e = pkf_expr(c, call);
  if (e) {
    pki_stmt *s = pki_new_stmt(c->m, PKI_S_EXPR, pkf_span(call));
    s->value = e;
    push(c, out, s);
  }
}

static void expr_stmt(pkf_ctx *c, TSNode n, pki_block *out) {
  pkf_nodes ch = pkf_children(c, n);
  if (ch.n != 1) {
    stmt_error(c, n, "tuples are not supported in kernels");
    return;
  }
  TSNode x = ch.v[0];
  switch (pkf_ntype_of(c, x)) {
  case PKF_N_ASSIGNMENT:
    assignment(c, x, out);
    return;
  case PKF_N_AUGMENTED_ASSIGNMENT:
    aug_assignment(c, x, out);
    return;
  case PKF_N_CALL:
    if (is_pk_printf(c, x)) {
      printf_stmt(c, x, out);
    } else {
      pki_expr *e = pkf_expr(c, x);
      if (e) {
        pki_stmt *s = pki_new_stmt(c->m, PKI_S_EXPR, pkf_span(n));
        s->value = e;
        push(c, out, s);
      }
    }
    return;
  case PKF_N_YIELD:
    stmt_error(c, x, "'yield' is not supported in kernels");
    return;
  default:
    break;
  }
  stmt_error(c, x, "this expression statement has no effect; only calls (and "
                   "pk.printf) can be used as statements in kernels");
}

/* --------------------------------------------------------- control flow */

static bool no_else(pkf_ctx *c, TSNode n, const char *what) {
  TSNode alt = pkf_field(c, n, PKF_F_ALTERNATIVE);
  if (ts_node_is_null(alt))
    return true;
  pki_error(c->d, pkf_span(alt), "unsupported-statement",
            "'%s ... else' is not supported in kernels; use a flag variable", what);
  return false;
}

static void if_stmt(pkf_ctx *c, TSNode n, pki_block *out) {
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_IF, pkf_span(n));
  s->cond = pkf_expr(c, pkf_field(c, n, PKF_F_CONDITION));
  lower_in_scope(c, pkf_field(c, n, PKF_F_CONSEQUENCE), &s->body, "if", pkf_span(n));
  pki_block *orelse = &s->orelse;
  pkf_nodes ch = pkf_children(c, n);
  bool ok = s->cond != NULL;
  for (uint32_t i = 0; i < ch.n; i++) {
    TSNode alt = ch.v[i];
    if (pkf_type_is(c, alt, PKF_N_ELIF_CLAUSE)) {
      pki_stmt *e = pki_new_stmt(c->m, PKI_S_IF, pkf_span(alt));
      e->cond = pkf_expr(c, pkf_field(c, alt, PKF_F_CONDITION));
      ok &= e->cond != NULL;
      lower_in_scope(c, pkf_field(c, alt, PKF_F_CONSEQUENCE), &e->body, "elif", pkf_span(alt));
      push(c, orelse, e);
      orelse = &e->orelse;
    } else if (pkf_type_is(c, alt, PKF_N_ELSE_CLAUSE)) {
      lower_in_scope(c, pkf_field(c, alt, PKF_F_BODY), orelse, "else", pkf_span(alt));
    }
  }
  if (ok)
    push(c, out, s);
}

/* A loop whose body assigns its variable v (`for j in range(3): ... j = ...`, or an
 * inner loop over j) still runs every iteration in Python: count with a fresh
 * variable and declare v from it at the top of each iteration. */
static void count_apart(pkf_ctx *c, pki_stmt *s, TSNode left) {
  pki_var *v = s->var;
  v->loop_alias = true;
  s->var = pki_new_var(c->m, pkf_fresh_name(c, v->name), PKI_VAR_LOCAL, v->type,
                       pkf_span(left));
  pki_func_add_local(c->m, c->fn, s->var);
  pki_stmt *d = pki_new_stmt(c->m, PKI_S_DECL, pkf_span(left));
  d->var = v;
  d->value = pki_new_expr(c->m, PKI_E_VAR, pkf_span(left));
  d->value->var = s->var;
  pki_block_push(c->m->arena, &s->body, d);
  for (int i = s->body.n - 1; i > 0; i--) /* first */
    s->body.stmts[i] = s->body.stmts[i - 1];
  s->body.stmts[0] = d;
}

static void for_stmt(pkf_ctx *c, TSNode n, pki_block *out) {
  TSNode left = pkf_field(c, n, PKF_F_LEFT), right = pkf_field(c, n, PKF_F_RIGHT);
  if (pkf_type_is(c, ts_node_child(n, 0), PKF_N_ASYNC)) {
    stmt_error(c, n, "'async for' is not supported in kernels");
    return;
  }
  if (!no_else(c, n, "for"))
    return;
  if (!pkf_type_is(c, right, PKF_N_CALL) ||
      !pkf_is(c, pkf_field(c, right, PKF_F_FUNCTION), "range") ||
      !pkf_type_is(c, pkf_field(c, right, PKF_F_ARGUMENTS), PKF_N_ARGUMENT_LIST)) {
    stmt_error(c, right, "only 'for NAME in range(...)' loops are supported in kernels; "
                         "loop over indices, e.g. 'for j in range(v.extent(0))'");
    return;
  }
  if (!pkf_type_is(c, left, PKF_N_IDENTIFIER)) {
    stmt_error(c, left, "the loop variable must be a single name");
    return;
  }
  pkf_nodes args = pkf_children(c, pkf_field(c, right, PKF_F_ARGUMENTS));
  if (args.n < 1 || args.n > 3) {
    pki_error(c->d, pkf_span(right), "arity",
              "wrong number of arguments to 'range': expected 1 to 3, got %u", args.n);
    return;
  }
  pki_expr *a[3] = {0};
  bool ok = true;
  for (uint32_t i = 0; i < args.n; i++)
    ok &= (a[i] = pkf_expr(c, args.v[i])) != NULL;
  uint32_t s0 = ts_node_start_byte(left);
  pki_var *old = pkf_lookup(c, c->src + s0, ts_node_end_byte(left) - s0);
  if (old && (!pkf_own_var(c, old) || old->kind != PKI_VAR_LOCAL ||
              (old->type.kind != PKI_VOID && !pki_is_int(old->type.kind)))) {
    pki_error(c->d, pkf_span(left), "loop-variable",
              "loop variable '%s' reuses the name of %s declared at %u:%u; "
              "use a fresh name for the loop variable", old->name,
              old->kind != PKI_VAR_LOCAL ? "a parameter" : !pkf_own_var(c, old)
                  ? "an outer function's variable" : "a non-integer variable",
              old->span.line, old->span.col);
    ok = false;
  }
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_FOR, pkf_span(n));
  if (args.n == 1) {
    s->begin = pki_new_expr(c->m, PKI_E_INT, pkf_span(right));
    s->end = a[0];
  } else {
    s->begin = a[0];
    s->end = a[1];
  }
  s->step = a[2];
  if (!s->step) {
    s->step = pki_new_expr(c->m, PKI_E_INT, pkf_span(right));
    s->step->ival = 1;
  }
  pkf_scope sc;
  pkf_scope_push(c, &sc, "for", pkf_span(n));
  if (old) { /* `t: int = 0 ... for t in range(d)`: the loop assigns t, as in Python */
    pki_type it = old->type.kind == PKI_VOID ? pki_int_type : old->type;
    s->var = pki_new_var(c->m, pkf_fresh_name(c, old->name), PKI_VAR_LOCAL, it,
                         pkf_span(left));
    pki_func_add_local(c->m, c->fn, s->var);
    pki_stmt *set = pki_new_stmt(c->m, PKI_S_ASSIGN, pkf_span(left));
    set->target = pki_new_expr(c->m, PKI_E_VAR, pkf_span(left));
    set->target->var = old;
    set->value = pki_new_expr(c->m, PKI_E_VAR, pkf_span(left));
    set->value->var = s->var;
    push(c, &s->body, set);
  } else {
    s->var = new_local(c, left, pki_int_type, false);
  }
  c->loops++;
  pkf_lower_body(c, pkf_field(c, n, PKF_F_BODY), &s->body);
  c->loops--;
  pkf_scope_pop(c);
  if (!old && pki_block_assigns(&s->body, s->var))
    count_apart(c, s, left);
  if (ok)
    push(c, out, s);
}

static void while_stmt(pkf_ctx *c, TSNode n, pki_block *out) {
  if (!no_else(c, n, "while"))
    return;
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_WHILE, pkf_span(n));
  s->cond = pkf_expr(c, pkf_field(c, n, PKF_F_CONDITION));
  c->loops++;
  lower_in_scope(c, pkf_field(c, n, PKF_F_BODY), &s->body, "while", pkf_span(n));
  c->loops--;
  if (s->cond)
    push(c, out, s);
}

static void return_stmt(pkf_ctx *c, TSNode n, pki_block *out) {
  TSNode v = pkf_named_child(c, n, 0);
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_RETURN, pkf_span(n));
  if (!ts_node_is_null(v)) {
    if (c->fn->is_closure) {
      pki_error(c->d, pkf_span(v), "bad-return",
                "a nested function cannot return a value; use a reduction's accumulator "
                "or assign an outer variable declared 'nonlocal'");
      return;
    }
    if (c->fn->is_workunit) {
      pki_error(c->d, pkf_span(v), "bad-return",
                "a workunit cannot return a value; write results into a View or the "
                "accumulator");
      return;
    }
    if (!(s->value = pkf_expr(c, v)))
      return;
  }
  push(c, out, s);
}

/* assert cond[, "message"] */
static void assert_stmt(pkf_ctx *c, TSNode n, pki_block *out) {
  pkf_nodes ch = pkf_children(c, n);
  if (ch.n < 1 || ch.n > 2) {
    stmt_error(c, n, "malformed assert statement");
    return;
  }
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_ASSERT, pkf_span(n));
  s->cond = pkf_expr(c, ch.v[0]);
  if (ch.n == 2) {
    if (!pkf_type_is(c, ch.v[1], PKF_N_STRING) &&
        !pkf_type_is(c, ch.v[1], PKF_N_CONCATENATED_STRING)) {
      pki_error(c->d, pkf_span(ch.v[1]), "bad-assert",
                "the message of an assert in a kernel must be a string literal");
      return;
    }
    s->args = pki_alloc(c->m->arena, sizeof *s->args);
    s->nargs = 1;
    size_t len = 0;
    if (!(s->args[0] = format_string(c, ch.v[1], "assert messages", &len)))
      return;
    if (strlen(s->args[0]->str) != len) {
      pki_error(c->d, pkf_span(ch.v[1]), "bad-assert",
                "an assert message in a kernel cannot hold a NUL character; remove the \\0");
      return;
    }
  }
  if (s->cond)
    push(c, out, s);
}

/* v[ix...] for the View (or List) v; NULL after an error. */
static pki_expr *soft_index(pkf_ctx *c, TSNode at, pki_var *v, pkf_nodes ix) {
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_INDEX, pkf_span(at), (int)ix.n + 1);
  e->args[0] = pki_new_expr(c->m, PKI_E_VAR, pkf_span(at));
  e->args[0]->var = v;
  bool ok = true;
  for (uint32_t i = 0; i < ix.n; i++)
    ok &= (e->args[i + 1] = pkf_expr(c, pkf_unwrap_type(c, ix.v[i]))) != NULL;
  return ok ? e : NULL;
}

/* The variable `type` names here: a local or parameter, else a bare member. */
static pki_var *soft_type_var(pkf_ctx *c) {
  pki_var *v = pkf_lookup(c, "type", 4);
  return v ? v : pkf_bare_member_named(c, "type");
}

/* The value of `type[i] = type[j]`: tree-sitter reads `type[j]` there as a
 * generic type; it is the element j of the View `type`. */
static pki_expr *soft_type_value(pkf_ctx *c, TSNode r, pki_var *v) {
  if (pkf_type_is(c, r, PKF_N_GENERIC_TYPE) && pkf_is(c, pkf_named_child(c, r, 0), "type"))
    return soft_index(c, r, v, pkf_children(c, pkf_named_child(c, r, 1)));
  return pkf_expr(c, r);
}

/* `type[i, ...] = v` where `type` names a View: tree-sitter reads a soft
 * keyword there as a PEP 695 alias (left: [i, ...], right: v). */
static bool soft_type_assign(pkf_ctx *c, TSNode n, pki_block *out) {
  pki_var *v = soft_type_var(c);
  TSNode l = pkf_unwrap_type(c, pkf_field(c, n, PKF_F_LEFT)),
         r = pkf_unwrap_type(c, pkf_field(c, n, PKF_F_RIGHT));
  if (!v || !pkf_type_is(c, l, PKF_N_LIST) || ts_node_is_null(r))
    return false;
  pkf_nodes ix = pkf_children(c, l);
  if (ix.n < 1 || (v->type.kind == PKI_VIEW && (int)ix.n != v->type.rank))
    return false;
  pki_expr *e = soft_index(c, l, v, ix);
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_ASSIGN, pkf_span(n));
  s->target = e;
  s->value = soft_type_value(c, r, v);
  if (e && s->value)
    push(c, out, s);
  return true;
}

static void pass_stmt(pkf_ctx *c, TSNode n, pki_block *out) {}

static void loop_jump(pkf_ctx *c, TSNode n, pki_block *out) {
  bool brk = pkf_type_is(c, n, PKF_N_BREAK_STATEMENT);
  if (c->loops == 0) {
    pki_error(c->d, pkf_span(n), "outside-loop", "'%s' outside a loop", brk ? "break" : "continue");
    return;
  }
  push(c, out, pki_new_stmt(c->m, brk ? PKI_S_BREAK : PKI_S_CONTINUE, pkf_span(n)));
}

/* ------------------------------------------------------------- dispatch */

/* How a statement type is lowered (fe.h, "Dispatch"): its hooks in order
 * (true = handled, errors reported), then lower; a type without lower is
 * reported with msg, or as "this statement (TYPE) is not supported". */
typedef struct stmt_rule {
  pkf_stmt_hook *hook[2];
  void (*lower)(pkf_ctx *c, TSNode n, pki_block *out);
  const char *msg;
} stmt_rule;

#define IMPORT_MSG "imports are not allowed inside kernels; import at the top of the file"

/* `global x`: rejected once here; later uses of x are not reported again. */
static void global_stmt(pkf_ctx *c, TSNode n, pki_block *out) {
  (void)out;
  stmt_error(c, n, "'global' is not supported in kernels; pass the value as a kernel argument");
  pkf_nodes names = pkf_named_children(c, n);
  for (uint32_t i = 0; i < names.n; i++)
    pkf_scope_reject(c, names.v[i]);
}

static const stmt_rule stmt_rules[PKF_N_COUNT] = {
    [PKF_N_EXPRESSION_STATEMENT] = {{pkf_ent_stmt, pkf_kernel_pattern}, expr_stmt, NULL},
    [PKF_N_IF_STATEMENT] = {{NULL}, if_stmt, NULL},
    [PKF_N_FOR_STATEMENT] = {{NULL}, for_stmt, NULL},
    [PKF_N_WHILE_STATEMENT] = {{NULL}, while_stmt, NULL},
    [PKF_N_RETURN_STATEMENT] = {{NULL}, return_stmt, NULL},
    [PKF_N_ASSERT_STATEMENT] = {{NULL}, assert_stmt, NULL},
    [PKF_N_PASS_STATEMENT] = {{NULL}, pass_stmt, NULL},
    [PKF_N_BREAK_STATEMENT] = {{NULL}, loop_jump, NULL},
    [PKF_N_CONTINUE_STATEMENT] = {{NULL}, loop_jump, NULL},
    [PKF_N_FUNCTION_DEFINITION] = {{pkf_kernel_def}, NULL,
        "nested functions are not supported in kernels outside team workunits; define a "
        "top-level @pk.function"},
    [PKF_N_NONLOCAL_STATEMENT] = {{pkf_kernel_nonlocal}, NULL,
        "'nonlocal' is not supported yet (it is meant for nested team closures)"},
    [PKF_N_TYPE_ALIAS_STATEMENT] = {{soft_type_assign}, NULL,
        "'type' aliases are not supported in kernels"},
    [PKF_N_GLOBAL_STATEMENT] = {{NULL}, global_stmt, NULL},
    [PKF_N_DELETE_STATEMENT] = {{NULL}, NULL, "'del' is not supported in kernels"},
    [PKF_N_WITH_STATEMENT] = {{NULL}, NULL, "'with' is not supported in kernels"},
    [PKF_N_TRY_STATEMENT] = {{NULL}, NULL,
        "'try' is not supported in kernels: device code cannot handle exceptions"},
    [PKF_N_RAISE_STATEMENT] = {{NULL}, NULL,
        "'raise' is not supported in kernels: device code cannot raise exceptions"},
    [PKF_N_DECORATED_DEFINITION] = {{NULL}, NULL,
        "nested functions are not supported in kernels (decorated); define a top-level "
        "@pk.function"},
    [PKF_N_CLASS_DEFINITION] = {{NULL}, NULL, "classes cannot be defined inside kernels"},
    [PKF_N_IMPORT_STATEMENT] = {{NULL}, NULL, IMPORT_MSG},
    [PKF_N_IMPORT_FROM_STATEMENT] = {{NULL}, NULL, IMPORT_MSG},
    [PKF_N_FUTURE_IMPORT_STATEMENT] = {{NULL}, NULL, IMPORT_MSG},
    [PKF_N_MATCH_STATEMENT] = {{NULL}, NULL,
        "'match' is not supported in kernels; use if/elif/else"},
    [PKF_N_PRINT_STATEMENT] = {{NULL}, NULL,
        "Python 2 print is not supported; use pk.printf(fmt, ...)"},
    [PKF_N_EXEC_STATEMENT] = {{NULL}, NULL, "'exec' is not supported in kernels"},
};

static void lower_stmt(pkf_ctx *c, TSNode n, pki_block *out) {
  const stmt_rule *r = &stmt_rules[pkf_ntype_of(c, n)];
  for (size_t i = 0; i < sizeof r->hook / sizeof r->hook[0] && r->hook[i]; i++)
    if (r->hook[i](c, n, out))
      return;
  if (r->lower)
    r->lower(c, n, out);
  else if (r->msg)
    stmt_error(c, n, r->msg);
  else
    pki_error(c->d, pkf_span(n), "unsupported-statement",
              "this statement (%s) is not supported in kernels", ts_node_type(n));
}
