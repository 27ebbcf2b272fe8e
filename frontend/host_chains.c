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
  if (pkf_type_is(c, n, PKF_N_IDENTIFIER) || pkf_type_is(c, n, PKF_N_INTEGER) ||
      pkf_type_is(c, n, PKF_N_FLOAT) || pkf_type_is(c, n, PKF_N_TRUE) ||
      pkf_type_is(c, n, PKF_N_FALSE))
    return true;
  if (pkf_type_is(c, n, PKF_N_ATTRIBUTE))
    return simple(c, pkf_field(c, n, PKF_F_OBJECT), depth + 1);
  if (pkf_type_is(c, n, PKF_N_UNARY_OPERATOR))
    return simple(c, pkf_field(c, n, PKF_F_ARGUMENT), depth + 1);
  if (pkf_type_is(c, n, PKF_N_PARENTHESIZED_EXPRESSION))
    return simple(c, pkf_named_child(c, n, 0), depth + 1);
  return false;
}

/* Range bounds may also be sums, differences and products of those. */
static bool simple_bound(pkf_ctx *c, TSNode n, int depth) {
  if (pkf_type_is(c, n, PKF_N_BINARY_OPERATOR) && depth < 8) {
    TSNode op = pkf_field(c, n, PKF_F_OPERATOR);
    return (pkf_is(c, op, "+") || pkf_is(c, op, "-") || pkf_is(c, op, "*") ||
            pkf_is(c, op, "//")) &&
           simple_bound(c, pkf_field(c, n, PKF_F_LEFT), depth + 1) &&
           simple_bound(c, pkf_field(c, n, PKF_F_RIGHT), depth + 1);
  }
  return simple(c, n, depth);
}

/* The FunctionSty workunit named by n, or NULL. */
static const pki_func *workunit(pkf_ctx *c, TSNode n) {
  if (!pkf_type_is(c, n, PKF_N_IDENTIFIER))
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
  if (!pkf_type_is(c, st, PKF_N_EXPRESSION_STATEMENT) || pkf_named_child_count(c, st) != 1)
    return false;
  TSNode call = pkf_named_child(c, st, 0);
  int want = PKI_PATTERN_FOR;
  const char *target = NULL;
  if (pkf_type_is(c, call, PKF_N_ASSIGNMENT)) { /* the target is evaluated after the launch */
    TSNode left = pkf_field(c, call, PKF_F_LEFT);
    if (!pkf_type_is(c, left, PKF_N_IDENTIFIER) && !pkf_type_is(c, left, PKF_N_ATTRIBUTE) &&
        !pkf_type_is(c, left, PKF_N_SUBSCRIPT))
      return false;
    target = pkf_text(c, left);
    call = pkf_field(c, call, PKF_F_RIGHT);
    want = PKI_PATTERN_REDUCE;
  }
  if (!pkf_type_is(c, call, PKF_N_CALL) || pkf_parallel_pattern(c, call) != want)
    return false;
  pkf_nodes a = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  TSNode pos[3];
  int npos = 0;
  for (uint32_t i = 0; i < a.n; i++) {
    if (pkf_type_is(c, a.v[i], PKF_N_KEYWORD_ARGUMENT))
      continue;
    if (npos == 3)
      return false;
    pos[npos++] = a.v[i];
  }
  int k = npos == 3 ? 1 : 0;
  if (npos - k != 2 || (k && !pkf_type_is(c, pos[0], PKF_N_STRING)))
    return false;
  const pki_func *f = workunit(c, pos[k + 1]);
  if (!f || f->runtime_typed || (int)f->pattern != want || f->policy == PKI_POLICY_TEAM ||
      (f->nparams && !f->params))
    return false;
  const char **args = pki_alloc(c->m->arena, sizeof *args * (size_t)(f->nparams + 1));
  for (int p = 0; p < f->nparams; p++)
    args[p] = NULL;
  for (uint32_t i = 0; i < a.n; i++) {
    if (!pkf_type_is(c, a.v[i], PKF_N_KEYWORD_ARGUMENT))
      continue;
    TSNode name = pkf_field(c, a.v[i], PKF_F_NAME), value = pkf_field(c, a.v[i], PKF_F_VALUE);
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
    pkf_nodes r = pkf_children(c, pkf_field(c, pkf_field(c, loop, PKF_F_RIGHT), PKF_F_ARGUMENTS));
    ch->loop = true;
    ch->loop_span = pkf_span(loop);
    ch->loop_var = pkf_text(c, pkf_field(c, loop, PKF_F_LEFT));
    ch->range[0] = r.n > 1 ? pkf_text(c, r.v[0]) : "0";
    ch->range[1] = pkf_text(c, r.v[r.n > 1 ? 1 : 0]);
    ch->range[2] = r.n > 2 ? pkf_text(c, r.v[2]) : "1";
  }
  pki_vec_push(c->m->arena, &c->m->host_chains, ch);
}

/* `for NAME in range(b...)` without else whose bounds are simple. */
static bool range_loop(pkf_ctx *c, TSNode st) {
  if (!pkf_type_is(c, st, PKF_N_FOR_STATEMENT) ||
      !pkf_type_is(c, pkf_field(c, st, PKF_F_LEFT), PKF_N_IDENTIFIER) ||
      !ts_node_is_null(pkf_field(c, st, PKF_F_ALTERNATIVE)))
    return false;
  TSNode r = pkf_field(c, st, PKF_F_RIGHT);
  if (!pkf_type_is(c, r, PKF_N_CALL) || !pkf_is(c, pkf_field(c, r, PKF_F_FUNCTION), "range"))
    return false;
  pkf_nodes a = pkf_children(c, pkf_field(c, r, PKF_F_ARGUMENTS));
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
      pkf_nodes body = pkf_children(c, pkf_field(c, st.v[i], PKF_F_BODY));
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
  if (pkf_type_is(c, n, PKF_N_DECORATED_DEFINITION)) {
    if (pkf_pk_decorated(c, n))
      return; /* kernels and workloads are not host code of the file */
    walk(c, pkf_field(c, n, PKF_F_DEFINITION), where, depth + 1);
    return;
  }
  if (pkf_type_is(c, n, PKF_N_FUNCTION_DEFINITION)) {
    block_chains(c, pkf_field(c, n, PKF_F_BODY), pkf_text(c, pkf_field(c, n, PKF_F_NAME)),
                 depth + 1);
    return;
  }
  if (pkf_type_is(c, n, PKF_N_BLOCK)) {
    block_chains(c, n, where, depth + 1);
    return;
  }
  if (!pkf_statement_like(c, n) && !pkf_type_is(c, n, PKF_N_CLASS_DEFINITION))
    return;
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++)
    walk(c, kids.v[i], where, depth + 1);
}

void pkf_host_chains(pkf_ctx *c, TSNode root) {
  if (c->spec)
    return; /* a specialization build holds one kernel */
  block_chains(c, root, "<module>", 0);
}
