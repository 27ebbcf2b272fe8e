/*
 * host_calls.c - checks of the host code's kernel launches
 * `pk.parallel_for/reduce/scan([name,] policy, k, p=x, ...)` where k names a
 * function of this file:
 *   - k is a module-level def without @pk.workunit: pkc builds no kernel for
 *     it and the launch would fail at run time; the warning says what to add
 *     and where (a note at the def);
 *   - k is a FunctionSty workunit and a keyword names none of its parameters:
 *     the warning names the unexpected keyword (and the parameter it is
 *     probably meant to be), which the run would otherwise report only as the
 *     missing one.
 * Warnings, not errors: as in Python, only the call is wrong, and only if it
 * runs; the file's kernels build (a rarely taken path does not sink them).
 * A name the enclosing function or the module binds otherwise (an argument,
 * an assignment such as `k = pk.workunit(f)`) is left alone.
 */
#include "ents.h"

#include <string.h>

/* Whether identifier id binds its name where it stands (an assignment or
 * loop target, a parameter, a def or class name, an import alias). */
static bool binds_here(pkf_ctx *c, TSNode id) {
  TSNode p = ts_node_parent(id);
  pkf_ntype t = pkf_ntype_of(c, p);
  if (t == PKF_N_PATTERN_LIST || t == PKF_N_TUPLE_PATTERN || t == PKF_N_LIST_PATTERN ||
      t == PKF_N_TYPED_PARAMETER || t == PKF_N_DEFAULT_PARAMETER ||
      t == PKF_N_TYPED_DEFAULT_PARAMETER || t == PKF_N_ALIASED_IMPORT ||
      t == PKF_N_NAMED_EXPRESSION)
    return true;
  if (t == PKF_N_ASSIGNMENT || t == PKF_N_AUGMENTED_ASSIGNMENT || t == PKF_N_FOR_STATEMENT)
    return ts_node_eq(pkf_field(c, p, PKF_F_LEFT), id);
  if (t == PKF_N_FUNCTION_DEFINITION || t == PKF_N_CLASS_DEFINITION)
    return ts_node_eq(pkf_field(c, p, PKF_F_NAME), id);
  return !strcmp(ts_node_type(p), "parameters") || !strcmp(ts_node_type(p), "dotted_name");
}

/* Whether name is bound inside n (not looking into nested defs, classes or
 * lambdas, except for their names and, for the scope def itself, its
 * parameters). */
static bool bound_in(pkf_ctx *c, TSNode n, const char *name, bool scope, int depth) {
  if (depth > 200)
    return true; /* too deep to tell: assume bound, report nothing */
  pkf_ntype t = pkf_ntype_of(c, n);
  if (t == PKF_N_IDENTIFIER)
    return pkf_is(c, n, name) && binds_here(c, n);
  if (!scope && (t == PKF_N_FUNCTION_DEFINITION || t == PKF_N_CLASS_DEFINITION))
    return pkf_is(c, pkf_field(c, n, PKF_F_NAME), name);
  if (!scope && t == PKF_N_LAMBDA)
    return false;
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++)
    if (bound_in(c, kids.v[i], name, false, depth + 1))
      return true;
  return false;
}

/* Whether the module binds name other than by plain defs (an assignment
 * `k = pk.workunit(f)`, an import, a decorated def or a class). */
static bool module_rebinds(pkf_ctx *c, const char *name) {
  pkf_nodes top = pkf_children(c, c->root);
  for (uint32_t i = 0; i < top.n; i++)
    if (!pkf_type_is(c, top.v[i], PKF_N_FUNCTION_DEFINITION) &&
        bound_in(c, top.v[i], name, false, 0))
      return true;
  return false;
}

static const pki_entity *workunit_named(pkf_ctx *c, TSNode n) {
  for (int i = 0; i < c->m->nentities; i++) {
    const pki_entity *e = c->m->entities[i];
    if (e->kind == PKI_ENT_WORKUNIT && e->nfuncs && pkf_is(c, n, e->name))
      return e;
  }
  return NULL;
}

static void undecorated(pkf_ctx *c, TSNode call, TSNode k) {
  TSNode def = pkf_plain_top_def(c, k), scope = pkf_enclosing_def(c, call);
  const char *name = pkf_text(c, k);
  if (ts_node_is_null(def) || module_rebinds(c, name) ||
      (!ts_node_is_null(scope) && bound_in(c, scope, name, true, 0)))
    return;
  TSNode fn = pkf_field(c, pkf_field(c, call, PKF_F_FUNCTION), PKF_F_ATTRIBUTE);
  pki_warning(c->d, pkf_span(k), "undecorated-kernel",
              "'%s' is not a kernel: pkc builds no C++ for it, so pk.%s would fail at run "
              "time; add @pk.workunit on the line above 'def %s' (line %u)",
              name, pkf_text(c, fn), name, ts_node_start_point(def).row + 1);
  pki_note(c->d, pkf_span(pkf_field(c, def, PKF_F_NAME)), "undecorated-kernel",
           "'%s' is defined here without @pk.workunit", name);
}

/* "v, a": the keyword arguments workunit f takes. */
static const char *param_list(pkf_ctx *c, const pki_func *f) {
  const char *s = "";
  for (int p = 0; p < f->nparams; p++)
    s = pki_sprintf(c->m->arena, "%s%s%s", s, p ? ", " : "", f->params[p]->name);
  return f->nparams ? s : "no arguments";
}

static void keywords(pkf_ctx *c, pkf_nodes a, const pki_func *f) {
  for (uint32_t i = 0; i < a.n; i++)
    if (pkf_type_is(c, a.v[i], PKF_N_DICTIONARY_SPLAT) ||
        pkf_type_is(c, a.v[i], PKF_N_LIST_SPLAT) || (f->nparams && !f->params))
      return; /* **kwargs: the names are known at run time only */
  const char **names = pki_alloc(c->m->arena, sizeof *names * (size_t)(f->nparams + 1));
  for (int p = 0; p < f->nparams; p++)
    names[p] = f->params[p]->name;
  for (uint32_t i = 0; i < a.n; i++) {
    if (!pkf_type_is(c, a.v[i], PKF_N_KEYWORD_ARGUMENT))
      continue;
    TSNode kw = pkf_field(c, a.v[i], PKF_F_NAME);
    const char *word = pkf_text(c, kw);
    bool known = f->acc && (!strcmp(word, "acc") || /* PyKokkos' acc=0 start value */
                            !strcmp(word, "reducer")); /* and reducer=pk.Max */
    for (int p = 0; p < f->nparams && !known; p++)
      known = !strcmp(word, names[p]);
    if (known)
      continue;
    const char *near = pki_closest(word, names, f->nparams);
    pki_warning(c->d, pkf_span(kw), "unexpected-keyword",
                "unexpected keyword argument '%s' for kernel '%s'%s%s%s; it takes %s (this "
                "call raises TypeError when it runs)", word, f->name,
                near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "",
                param_list(c, f));
  }
}

static void launch(pkf_ctx *c, TSNode call) {
  pkf_nodes a = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  TSNode k = {0};
  int npos = 0;
  for (uint32_t i = 0; i < a.n; i++)
    if (!pkf_type_is(c, a.v[i], PKF_N_KEYWORD_ARGUMENT) &&
        !pkf_type_is(c, a.v[i], PKF_N_DICTIONARY_SPLAT))
      k = a.v[i], npos++;
  if ((npos != 2 && npos != 3) || !pkf_type_is(c, k, PKF_N_IDENTIFIER))
    return;
  const pki_entity *e = workunit_named(c, k);
  if (e)
    keywords(c, a, e->funcs[0]);
  else
    undecorated(c, call, k);
}

static void walk(pkf_ctx *c, TSNode n, int depth) {
  if (depth > 200)
    return;
  if (pkf_type_is(c, n, PKF_N_DECORATED_DEFINITION) && pkf_pk_decorated(c, n))
    return; /* kernels and workloads: their launches are checked as dialect */
  if (pkf_type_is(c, n, PKF_N_CALL) && pkf_parallel_pattern(c, n) >= 0)
    launch(c, n);
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++)
    walk(c, kids.v[i], depth + 1);
}

void pkf_host_calls(pkf_ctx *c, TSNode root) {
  if (c->spec)
    return; /* a specialization build holds one kernel */
  walk(c, root, 0);
}
