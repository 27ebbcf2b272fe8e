/*
 * infer.c - call-site inference of unannotated FunctionSty kernel arguments
 * (dialect item 10): every pk.parallel_for/reduce/scan(..., kernel, name=EXPR)
 * in the file gives name a type; EXPR is a literal, pk.View([...], dtype) or a
 * name bound once (in the enclosing function, else at module level) to one of
 * those or to int(...)/float(...)/len(...). All calls must agree.
 */
#include "ents.h"

typedef struct infer {
  const char *kernel, *pname;
  pki_type t;
  int found;   /* call sites that pass pname */
  bool failed; /* a site whose type is unknown, or two that disagree */
} infer;

static bool expr_type(pkf_ctx *c, TSNode scope, TSNode e, pki_type *out, int depth);

static bool pk_attr_is(pkf_ctx *c, TSNode fn, const char *name) {
  return pkf_type_is(fn, "attribute") && pkf_alias_is(c, pkf_field(fn, "object"), PKF_AL_PK) &&
         pkf_is(c, pkf_field(fn, "attribute"), name);
}

/* The single `name = value` in block (not looking into nested defs/classes). */
static void bindings(pkf_ctx *c, TSNode n, const char *name, TSNode *val, int *count) {
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k; i++) {
    TSNode ch = ts_node_named_child(n, i);
    const char *t = ts_node_type(ch);
    if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
        !strcmp(t, "decorated_definition"))
      continue;
    if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment")) {
      TSNode l = pkf_field(ch, "left");
      if (pkf_type_is(l, "identifier") && pkf_is(c, l, name)) {
        (*count)++;
        *val = pkf_field(ch, "right");
      }
    }
    if (!strcmp(t, "for_statement") && pkf_is(c, pkf_field(ch, "left"), name))
      (*count) += 2;
    bindings(c, ch, name, val, count);
  }
}

static bool name_type(pkf_ctx *c, TSNode scope, TSNode id, pki_type *out, int depth) {
  const char *nm = pkf_text(c, id);
  TSNode val = {0};
  int count = 0;
  if (!ts_node_is_null(scope))
    bindings(c, pkf_field(scope, "body"), nm, &val, &count);
  if (count == 0) {
    bindings(c, c->root, nm, &val, &count);
    scope = (TSNode){0};
  }
  return count == 1 && !ts_node_is_null(val) && expr_type(c, scope, val, out, depth + 1);
}

/* pk.View([d0, ...], dtype) / pk.View([n], dtype=int) */
static bool view_type(pkf_ctx *c, TSNode call, pki_type *out) {
  pkf_nodes a = pkf_children(c, pkf_field(call, "arguments"));
  if (a.n < 1 || !pkf_type_is(a.v[0], "list"))
    return false;
  int rank = (int)ts_node_named_child_count(a.v[0]);
  if (rank < 1 || rank > 8)
    return false;
  TSNode dt = {0};
  for (uint32_t i = 1; i < a.n; i++) {
    if (pkf_type_is(a.v[i], "keyword_argument")) {
      if (pkf_is(c, pkf_field(a.v[i], "name"), "dtype"))
        dt = pkf_field(a.v[i], "value");
    } else if (i == 1) {
      dt = a.v[i];
    }
  }
  pki_type e = pki_float_type;
  if (!ts_node_is_null(dt)) {
    int n = c->d->n, errs = c->d->errors; /* quiet: a failed guess is no error */
    bool ok = pkf_type(c, dt, true, &e);
    c->d->n = n;
    c->d->errors = errs;
    if (!ok || !pki_is_numeric(e.kind))
      return false;
  }
  *out = pki_view(e.kind, rank, PKI_LAYOUT_DEFAULT);
  return true;
}

static bool expr_type(pkf_ctx *c, TSNode scope, TSNode e, pki_type *out, int depth) {
  if (depth > 8)
    return false;
  const char *t = ts_node_type(e);
  if (!strcmp(t, "integer")) *out = pki_int_type;
  else if (!strcmp(t, "float")) *out = pki_float_type;
  else if (!strcmp(t, "true") || !strcmp(t, "false")) *out = pki_bool_type;
  else if (!strcmp(t, "unary_operator"))
    return expr_type(c, scope, pkf_field(e, "argument"), out, depth) && pki_is_numeric(out->kind);
  else if (!strcmp(t, "parenthesized_expression"))
    return expr_type(c, scope, ts_node_named_child(e, 0), out, depth);
  else if (!strcmp(t, "identifier"))
    return name_type(c, scope, e, out, depth);
  else if (!strcmp(t, "call")) {
    TSNode fn = pkf_field(e, "function");
    if (pkf_is(c, fn, "int") || pkf_is(c, fn, "len")) *out = pki_int_type;
    else if (pkf_is(c, fn, "float")) *out = pki_float_type;
    else if (pk_attr_is(c, fn, "View")) return view_type(c, e, out);
    else return false;
  } else
    return false;
  return true;
}

static TSNode enclosing_def(TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
    if (pkf_type_is(p, "function_definition"))
      return p;
  return (TSNode){0};
}

static void site(pkf_ctx *c, TSNode call, infer *in) {
  TSNode fn = pkf_field(call, "function");
  if (!pk_attr_is(c, fn, "parallel_for") && !pk_attr_is(c, fn, "parallel_reduce") &&
      !pk_attr_is(c, fn, "parallel_scan"))
    return;
  pkf_nodes a = pkf_children(c, pkf_field(call, "arguments"));
  bool mine = false;
  TSNode val = {0};
  for (uint32_t i = 0; i < a.n; i++) {
    if (pkf_type_is(a.v[i], "identifier") && pkf_is(c, a.v[i], in->kernel))
      mine = true;
    else if (pkf_type_is(a.v[i], "keyword_argument") && pkf_is(c, pkf_field(a.v[i], "name"), in->pname))
      val = pkf_field(a.v[i], "value");
  }
  if (!mine || ts_node_is_null(val))
    return;
  pki_type t;
  if (!expr_type(c, enclosing_def(call), val, &t, 0)) {
    in->failed = true;
    return;
  }
  if (in->found++ && !pki_type_eq(t, in->t))
    in->failed = true;
  in->t = t;
}

static void walk(pkf_ctx *c, TSNode n, infer *in) {
  if (pkf_type_is(n, "call"))
    site(c, n, in);
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k; i++)
    walk(c, ts_node_named_child(n, i), in);
}

bool pkf_infer_param(pkf_ctx *c, const char *kernel, const char *pname, pki_type *out) {
  if (ts_node_is_null(c->root))
    return false;
  infer in = {.kernel = kernel, .pname = pname};
  walk(c, c->root, &in);
  if (!in.found || in.failed)
    return false;
  *out = in.t;
  return true;
}
