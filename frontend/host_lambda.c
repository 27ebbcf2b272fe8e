/*
 * host_lambda.c - lambdas passed to pk.parallel_for/reduce in host code
 * (outside @pk entities), e.g. `pk.parallel_reduce(n, lambda i, acc: acc + w * x[i])`.
 *
 * Each becomes a FunctionSty workunit named pkc_lambda_L<line>_C<col>
 * (line of the lambda, byte column of its body: the shim finds the same
 * name from the lambda's code object). The host variables its body reads
 * (closure cells and globals) become its parameters: typed from their
 * bindings in the enclosing function where inference can (pkc build),
 * otherwise from their values at the call (run-time specialization). The
 * shim passes them by name at each call.
 */
#include "ents.h"

#include <stdio.h>

bool pkf_pk_decorated(pkf_ctx *c, TSNode dd) {
  pkf_nodes ns = pkf_children(c, dd);
  for (uint32_t i = 0; i < ns.n; i++) {
    if (!pkf_type_is(c, ns.v[i], PKF_N_DECORATOR))
      continue;
    TSNode e = pkf_named_child(c, ns.v[i], 0);
    if (pkf_type_is(c, e, PKF_N_CALL))
      e = pkf_field(c, e, PKF_F_FUNCTION);
    if (pkf_type_is(c, e, PKF_N_ATTRIBUTE) &&
        pkf_alias_is(c, pkf_field(c, e, PKF_F_OBJECT), PKF_AL_PK))
      return true;
  }
  return false;
}

int pkf_parallel_pattern(pkf_ctx *c, TSNode call) {
  TSNode fn = pkf_field(c, call, PKF_F_FUNCTION);
  if (!pkf_type_is(c, fn, PKF_N_ATTRIBUTE) ||
      !pkf_alias_is(c, pkf_field(c, fn, PKF_F_OBJECT), PKF_AL_PK))
    return -1;
  TSNode a = pkf_field(c, fn, PKF_F_ATTRIBUTE);
  return pkf_is(c, a, "parallel_for") ? PKI_PATTERN_FOR
         : pkf_is(c, a, "parallel_reduce") ? PKI_PATTERN_REDUCE
         : pkf_is(c, a, "parallel_scan") ? PKI_PATTERN_SCAN : -1;
}

static bool builtin_name(pkf_ctx *c, TSNode id) {
  static const char *const names[] = {"int", "float", "bool", "len", "range", "abs", "min",
                                      "max", "print", "self"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (pkf_is(c, id, names[i]))
      return true;
  return pki_builtin_lookup(pkf_text(c, id)) >= 0;
}

/* Adds to out the names the lambda body reads from the host (identifiers
 * that are not its parameters, attributes, keywords, aliases, constants,
 * functions, classtypes or builtins), once each, in order of appearance. */
static void free_names(pkf_ctx *c, TSNode n, TSNode params, const char **out, int *nout,
                       int cap, int depth) {
  if (depth > 100 || *nout >= cap)
    return;
  if (pkf_type_is(c, n, PKF_N_IDENTIFIER)) {
    TSNode p = pkf_parent(c, n);
    if (pkf_type_is(c, p, PKF_N_ATTRIBUTE) && ts_node_eq(pkf_field(c, p, PKF_F_ATTRIBUTE), n))
      return;
    if (pkf_type_is(c, p, PKF_N_KEYWORD_ARGUMENT) && ts_node_eq(pkf_field(c, p, PKF_F_NAME), n))
      return;
    pkf_nodes ps = pkf_children(c, params);
    for (uint32_t i = 0; i < ps.n; i++)
      if (pkf_is(c, n, pkf_text(c, ps.v[i])))
        return;
    if (pkf_alias_find(c, n) || builtin_name(c, n) || pkf_classtype_find(c, n))
      return;
    for (int i = 0; i < c->ndf; i++)
      if (pkf_is(c, n, c->dfuncs[i]->name))
        return;
    if (pkf_constant_lookup(c, n))
      return;
    const char *t = pkf_text(c, n);
    for (int i = 0; i < *nout; i++)
      if (!strcmp(out[i], t))
        return;
    out[(*nout)++] = t;
    return;
  }
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++)
    free_names(c, kids.v[i], params, out, nout, cap, depth + 1);
}

/* fill: the View argument of `pk.parallel_for(n, lambda i: expr, view)` (or a
 * null node): the workunit gets it as the parameter pkc_fill (the shim passes
 * the call's last positional argument under that name) and stores expr in it. */
static void host_lambda(pkf_ctx *c, TSNode lam, int pattern, TSNode fill) {
  if (!pkf_lambda_params_ok(c, lam, pattern))
    return;
  pkf_nodes ps = pkf_children(c, pkf_field(c, lam, PKF_F_PARAMETERS));
  TSNode body = pkf_field(c, lam, PKF_F_BODY);
  uint32_t want = pattern == PKI_PATTERN_REDUCE ? 2 : 1;
  TSPoint lp = ts_node_start_point(lam), bp = ts_node_start_point(body);
  const char *name = pki_sprintf(c->m->arena, "pkc_lambda_L%u_C%u", lp.row + 1, bp.column);
  pki_func *f = pki_new_func(c->m, name, pkf_span(lam));
  pki_entity *e = pki_new_entity(c->m, PKI_ENT_WORKUNIT, name, pkf_span(lam));
  e->extent = pkf_span(lam);
  f->is_workunit = true;
  f->policy = PKI_POLICY_RANGE;
  f->pattern = pattern;
  pki_var *iv = pki_new_var(c->m, pkf_text(c, ps.v[0]), PKI_VAR_INDEX, pki_int_type,
                            pkf_span(ps.v[0]));
  iv->annotated = true;
  pki_func_add_index(c->m, f, iv);
  if (want == 2) {
    f->acc = pki_new_var(c->m, pkf_text(c, ps.v[1]), PKI_VAR_ACC, pki_float_type,
                         pkf_span(ps.v[1]));
    f->acc->annotated = true;
  }
  enum { MAX_CAPTURES = 64 };
  const char *caps[MAX_CAPTURES];
  int ncap = 0;
  free_names(c, body, pkf_field(c, lam, PKF_F_PARAMETERS), caps, &ncap, MAX_CAPTURES, 0);
  TSNode scope = pkf_enclosing_def(c, lam);
  for (int i = 0; i < ncap; i++) {
    pki_type t = pki_void_type;
    if (pkf_infer_name(c, scope, caps[i], &t))
      f->inferred = true;
    else
      f->runtime_typed = true;
    if (c->spec && !strcmp(c->spec->kernel, name) && pkf_spec_type(c->spec, caps[i], &t))
      f->runtime_typed = false;
    pki_var *v = pki_new_var(c->m, caps[i], PKI_VAR_PARAM, t, pkf_span(lam));
    pki_func_add_param(c->m, f, v);
  }
  pki_var *fillv = NULL;
  if (!ts_node_is_null(fill)) {
    pki_type t = pki_void_type;
    bool known = pkf_type_is(c, fill, PKF_N_IDENTIFIER) &&
                 pkf_infer_name(c, scope, pkf_text(c, fill), &t);
    if (c->spec && !strcmp(c->spec->kernel, name) && pkf_spec_type(c->spec, "pkc_fill", &t))
      known = true;
    else if (!known)
      f->runtime_typed = true;
    fillv = pki_new_var(c->m, "pkc_fill", PKI_VAR_PARAM, t, pkf_span(fill));
    pki_func_add_param(c->m, f, fillv);
  }
  if (c->spec && !strcmp(c->spec->kernel, name)) {
    for (int i = 0; i < f->nparams; i++)
      if (f->params[i]->type.kind == PKI_VOID)
        pki_error(c->d, pkf_span(lam), "bad-specialization",
                  "the specialization of '%s' gives no type for '%s'", name, f->params[i]->name);
    f->runtime_typed = false;
  }
  pki_entity_add_func(c->m, e, f);
  pki_module_add_entity(c->m, e);
  /* lower the body, as entities.c's lower_func does */
  c->ent = e;
  c->fn = f;
  c->loops = 0;
  c->host = false;
  pkf_scope root;
  c->scope = NULL;
  pkf_scope_push(c, &root, "lambda", pkf_span(lam));
  pkf_scope_bind(c, iv);
  if (f->acc)
    pkf_scope_bind(c, f->acc);
  for (int i = 0; i < f->nparams; i++)
    pkf_scope_bind(c, f->params[i]);
  pki_expr *fe = NULL;
  if (fillv) {
    fe = pki_new_expr(c->m, PKI_E_VAR, pkf_span(fill));
    fe->var = fillv;
  }
  pkf_lambda_body(c, f, body, fe);
  pkf_scope_pop(c);
  c->fn = NULL;
  c->ent = NULL;
}

void pkf_host_lambdas(pkf_ctx *c, TSNode root) {
  pkf_stack st = {0};
  pkf_push(c, &st, root);
  while (st.n) {
    TSNode n = st.v[--st.n];
    if (pkf_type_is(c, n, PKF_N_DECORATED_DEFINITION) && pkf_pk_decorated(c, n))
      continue; /* lambdas in @pk.main are the workload's */
    if (pkf_type_is(c, n, PKF_N_CALL)) {
      int pat = pkf_parallel_pattern(c, n);
      if (pat >= 0) {
        pkf_nodes a = pkf_children(c, pkf_field(c, n, PKF_F_ARGUMENTS));
        uint32_t k = a.n && pkf_type_is(c, a.v[0], PKF_N_STRING) ? 1 : 0;
        if (k + 1 < a.n && pkf_type_is(c, a.v[k + 1], PKF_N_LAMBDA))
          host_lambda(c, a.v[k + 1], pat,
                      pat == PKI_PATTERN_FOR && k + 3 == a.n && !pkf_type_is(c, a.v[k + 2],
                      PKF_N_KEYWORD_ARGUMENT) ? a.v[k + 2] : (TSNode){0});
      }
    }
    pkf_nodes kids = pkf_named_children(c, n);
    for (uint32_t i = kids.n; i-- > 0;)
      pkf_push(c, &st, kids.v[i]);
  }
}
