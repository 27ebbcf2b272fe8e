/*
 * host_chains.c - candidate kernel chains of the file's host code (kernel
 * fusion, the static counterpart of PyFuser's run-time traces).
 *
 * A link is a statement `pk.parallel_for([name,] policy, k, p=x, ...)` or
 * `r = pk.parallel_reduce([name,] policy, k, ...)` (r a name, attribute or
 * subscript, which Python evaluates after the call) where k is a FunctionSty
 * workunit of this file and every argument is a name, an attribute of a
 * name or a number (nothing that runs code or reads a View). A chain is two
 * or more such statements in a row in one block, or the whole body of
 * `for v in range(...)` (then the bounds of the range are names, attributes
 * or integers, so that the shim can evaluate them again). Statements in a
 * row leave the host nothing to do between the launches, so the shim may
 * hold back all but the last one (pykokkos/_fusion.py).
 */
#include "ents.h"

/* A name, an attribute of one (self.n), a number or True/False. */
static bool simple(pkf_ctx *c, TSNode n, int depth) {
  if (ts_node_is_null(n) || depth > 8)
    return false;
  if (pkf_type_is(n, "identifier") || pkf_type_is(n, "integer") || pkf_type_is(n, "float") ||
      pkf_type_is(n, "true") || pkf_type_is(n, "false"))
    return true;
  if (pkf_type_is(n, "attribute"))
    return simple(c, pkf_field(n, "object"), depth + 1);
  if (pkf_type_is(n, "unary_operator"))
    return simple(c, pkf_field(n, "argument"), depth + 1);
  if (pkf_type_is(n, "parenthesized_expression"))
    return simple(c, ts_node_named_child(n, 0), depth + 1);
  return false;
}

/* Range bounds may also be sums, differences and products of those. */
static bool simple_bound(pkf_ctx *c, TSNode n, int depth) {
  if (pkf_type_is(n, "binary_operator") && depth < 8) {
    TSNode op = pkf_field(n, "operator");
    return (pkf_is(c, op, "+") || pkf_is(c, op, "-") || pkf_is(c, op, "*") ||
            pkf_is(c, op, "//")) &&
           simple_bound(c, pkf_field(n, "left"), depth + 1) &&
           simple_bound(c, pkf_field(n, "right"), depth + 1);
  }
  return simple(c, n, depth);
}

/* The FunctionSty workunit named by n, or NULL. */
static const pki_func *workunit(pkf_ctx *c, TSNode n) {
  if (!pkf_type_is(n, "identifier"))
    return NULL;
  for (int i = 0; i < c->m->nentities; i++) {
    const pki_entity *e = c->m->entities[i];
    if (e->kind == PKI_ENT_WORKUNIT && e->nfuncs && pkf_is(c, n, e->name))
      return e->funcs[0];
  }
  return NULL;
}

/* Fills *out if statement st is a link; false otherwise. */
static bool launch_of(pkf_ctx *c, TSNode st, pki_host_launch *out) {
  if (!pkf_type_is(st, "expression_statement") || ts_node_named_child_count(st) != 1)
    return false;
  TSNode call = ts_node_named_child(st, 0);
  int want = PKI_PATTERN_FOR;
  const char *target = NULL;
  if (pkf_type_is(call, "assignment")) { /* the target is evaluated after the launch */
    TSNode left = pkf_field(call, "left");
    if (!pkf_type_is(left, "identifier") && !pkf_type_is(left, "attribute") &&
        !pkf_type_is(left, "subscript"))
      return false;
    target = pkf_text(c, left);
    call = pkf_field(call, "right");
    want = PKI_PATTERN_REDUCE;
  }
  if (!pkf_type_is(call, "call") || pkf_parallel_pattern(c, call) != want)
    return false;
  pkf_nodes a = pkf_children(c, pkf_field(call, "arguments"));
  TSNode pos[3];
  int npos = 0;
  for (uint32_t i = 0; i < a.n; i++) {
    if (pkf_type_is(a.v[i], "keyword_argument"))
      continue;
    if (npos == 3)
      return false;
    pos[npos++] = a.v[i];
  }
  int k = npos == 3 ? 1 : 0;
  if (npos - k != 2 || (k && !pkf_type_is(pos[0], "string")))
    return false;
  const pki_func *f = workunit(c, pos[k + 1]);
  if (!f || f->runtime_typed || (int)f->pattern != want || f->policy == PKI_POLICY_TEAM ||
      (f->nparams && !f->params))
    return false;
  const char **args = pki_alloc(c->m->arena, sizeof *args * (size_t)(f->nparams + 1));
  for (int p = 0; p < f->nparams; p++)
    args[p] = NULL;
  for (uint32_t i = 0; i < a.n; i++) {
    if (!pkf_type_is(a.v[i], "keyword_argument"))
      continue;
    TSNode name = pkf_field(a.v[i], "name"), value = pkf_field(a.v[i], "value");
    if (!simple(c, value, 0))
      return false;
    int p = 0;
    while (p < f->nparams && !pkf_is(c, name, f->params[p]->name))
      p++;
    if (p == f->nparams || args[p])
      return false;
    args[p] = pkf_text(c, value);
  }
  for (int p = 0; p < f->nparams; p++)
    if (!args[p])
      return false; /* missing, or a module global the kernel reads by name */
  *out = (pki_host_launch){f, want, pkf_span(st), pkf_text(c, pos[k]), args, target};
  return true;
}

static void add_chain(pkf_ctx *c, const char *where, const pki_host_launch *ls, int n,
                      TSNode loop) {
  pki_host_chain *ch = pki_alloc(c->m->arena, sizeof *ch);
  *ch = (pki_host_chain){.where = where, .n = n};
  ch->launches = pki_alloc(c->m->arena, sizeof *ch->launches * (size_t)n);
  memcpy(ch->launches, ls, sizeof *ls * (size_t)n);
  if (!ts_node_is_null(loop)) {
    pkf_nodes r = pkf_children(c, pkf_field(pkf_field(loop, "right"), "arguments"));
    ch->loop = true;
    ch->loop_span = pkf_span(loop);
    ch->loop_var = pkf_text(c, pkf_field(loop, "left"));
    ch->range[0] = r.n > 1 ? pkf_text(c, r.v[0]) : "0";
    ch->range[1] = pkf_text(c, r.v[r.n > 1 ? 1 : 0]);
    ch->range[2] = r.n > 2 ? pkf_text(c, r.v[2]) : "1";
  }
  pki_vec_push(c->m->arena, &c->m->host_chains, ch);
}

/* `for NAME in range(b...)` without else whose bounds are simple. */
static bool range_loop(pkf_ctx *c, TSNode st) {
  if (!pkf_type_is(st, "for_statement") || !pkf_type_is(pkf_field(st, "left"), "identifier") ||
      !ts_node_is_null(pkf_field(st, "alternative")))
    return false;
  TSNode r = pkf_field(st, "right");
  if (!pkf_type_is(r, "call") || !pkf_is(c, pkf_field(r, "function"), "range"))
    return false;
  pkf_nodes a = pkf_children(c, pkf_field(r, "arguments"));
  if (a.n < 1 || a.n > 3)
    return false;
  for (uint32_t i = 0; i < a.n; i++)
    if (!simple_bound(c, a.v[i], 0))
      return false;
  return true;
}

static void walk(pkf_ctx *c, TSNode n, const char *where, int depth);

/* The links of block b (a module or a block node). */
static void block_chains(pkf_ctx *c, TSNode b, const char *where, int depth) {
  pkf_nodes st = pkf_children(c, b);
  pki_host_launch *ls = pki_alloc(c->m->arena, sizeof *ls * (size_t)(st.n + 1));
  for (uint32_t i = 0; i < st.n;) {
    int n = 0;
    while (i + (uint32_t)n < st.n && launch_of(c, st.v[i + (uint32_t)n], &ls[n]))
      n++;
    if (n >= 2)
      add_chain(c, where, ls, n, (TSNode){0});
    if (n) {
      i += (uint32_t)n;
      continue;
    }
    if (range_loop(c, st.v[i])) {
      pkf_nodes body = pkf_children(c, pkf_field(st.v[i], "body"));
      int k = 0;
      while ((uint32_t)k < body.n && launch_of(c, body.v[k], &ls[k]))
        k++;
      if (k && (uint32_t)k == body.n) {
        add_chain(c, where, ls, k, st.v[i]);
        i++;
        continue;
      }
      /* ls may be shorter than the body: a later block reallocates */
    }
    walk(c, st.v[i], where, depth + 1);
    i++;
  }
}

static void walk(pkf_ctx *c, TSNode n, const char *where, int depth) {
  if (depth > 64)
    return;
  if (pkf_type_is(n, "decorated_definition")) {
    if (pkf_pk_decorated(c, n))
      return; /* kernels and workloads are not host code of the file */
    walk(c, pkf_field(n, "definition"), where, depth + 1);
    return;
  }
  if (pkf_type_is(n, "function_definition")) {
    block_chains(c, pkf_field(n, "body"), pkf_text(c, pkf_field(n, "name")), depth + 1);
    return;
  }
  if (pkf_type_is(n, "block")) {
    block_chains(c, n, where, depth + 1);
    return;
  }
  const char *t = ts_node_type(n);
  if (!strstr(t, "statement") && !strstr(t, "clause") && strcmp(t, "class_definition"))
    return;
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k; i++)
    walk(c, ts_node_named_child(n, i), where, depth + 1);
}

void pkf_host_chains(pkf_ctx *c, TSNode root) {
  if (c->spec)
    return; /* a specialization build holds one kernel */
  block_chains(c, root, "<module>", 0);
}
