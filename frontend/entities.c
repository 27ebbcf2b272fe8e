/*
 * entities.c - the module level: imports (pykokkos, math, numpy aliases),
 * decorated entities (@pk.workunit, @pk.function, @pk.functor), their
 * signatures and functor data members; then lowers every body.
 */
#include "fe.h"

/* ------------------------------------------------------------- imports */

static void add_alias(pkf_ctx *c, const char *local, const char *orig, pkf_alias_kind k) {
  if (c->nalias == c->capalias) {
    int ncap = c->capalias ? c->capalias * 2 : 8;
    pkf_alias *na = pki_alloc(c->m->arena, sizeof *na * (size_t)ncap);
    if (c->nalias)
      memcpy(na, c->aliases, sizeof *na * (size_t)c->nalias);
    c->aliases = na;
    c->capalias = ncap;
  }
  c->aliases[c->nalias++] = (pkf_alias){local, orig, k};
}

const pkf_alias *pkf_alias_find(pkf_ctx *c, TSNode n) {
  if (!pkf_type_is(n, "identifier"))
    return NULL;
  for (int i = c->nalias - 1; i >= 0; i--)
    if (pkf_is(c, n, c->aliases[i].local))
      return &c->aliases[i];
  return NULL;
}

bool pkf_alias_is(pkf_ctx *c, TSNode n, pkf_alias_kind kind) {
  const pkf_alias *a = pkf_alias_find(c, n);
  return a && a->kind == kind;
}

static void import_stmt(pkf_ctx *c, TSNode st) {
  pkf_nodes ns = pkf_children(c, st);
  for (uint32_t i = 0; i < ns.n; i++) {
    TSNode name = ns.v[i], alias = {0};
    if (pkf_type_is(name, "aliased_import")) {
      alias = pkf_field(name, "alias");
      name = pkf_field(name, "name");
    }
    const char *local = pkf_text(c, ts_node_is_null(alias) ? name : alias);
    if (pkf_is(c, name, "pykokkos"))
      add_alias(c, local, NULL, PKF_AL_PK);
    else if (pkf_is(c, name, "math"))
      add_alias(c, local, NULL, PKF_AL_MATH);
    else if (pkf_is(c, name, "numpy"))
      add_alias(c, local, NULL, PKF_AL_NP);
  }
}

static void import_from(pkf_ctx *c, TSNode st) {
  TSNode mod = pkf_field(st, "module_name");
  if (!pkf_is(c, mod, "math"))
    return;
  pkf_nodes ns = pkf_children(c, st);
  for (uint32_t i = 0; i < ns.n; i++) {
    TSNode name = ns.v[i], alias = {0};
    if (ts_node_eq(name, mod))
      continue;
    if (pkf_type_is(name, "aliased_import")) {
      alias = pkf_field(name, "alias");
      name = pkf_field(name, "name");
    }
    if (!pkf_type_is(name, "dotted_name"))
      continue;
    add_alias(c, pkf_text(c, ts_node_is_null(alias) ? name : alias), pkf_text(c, name),
              PKF_AL_MATHNAME);
  }
}

/* ----------------------------------------------------------- decorators */

typedef enum { DEC_NONE, DEC_WORKUNIT, DEC_FUNCTION, DEC_FUNCTOR, DEC_UNSUPPORTED } dec_kind;

/* Classifies one decorator node (@pk.X or @pk.X(...)). */
static dec_kind decorator(pkf_ctx *c, TSNode dec) {
  TSNode e = ts_node_named_child(dec, 0);
  if (pkf_type_is(e, "call"))
    e = pkf_field(e, "function");
  if (!pkf_type_is(e, "attribute") || !pkf_alias_is(c, pkf_field(e, "object"), PKF_AL_PK))
    return DEC_NONE;
  TSNode a = pkf_field(e, "attribute");
  if (pkf_is(c, a, "workunit"))
    return DEC_WORKUNIT;
  if (pkf_is(c, a, "function"))
    return DEC_FUNCTION;
  if (pkf_is(c, a, "functor"))
    return DEC_FUNCTOR;
  if (pkf_is(c, a, "workload") || pkf_is(c, a, "main") || pkf_is(c, a, "callback") ||
      pkf_is(c, a, "classtype"))
    return DEC_UNSUPPORTED;
  return DEC_NONE;
}

/* The first pykokkos decorator of a decorated_definition; *at gets its node. */
static dec_kind decorators(pkf_ctx *c, TSNode dd, TSNode *at) {
  pkf_nodes ns = pkf_children(c, dd);
  for (uint32_t i = 0; i < ns.n; i++) {
    if (!pkf_type_is(ns.v[i], "decorator"))
      continue;
    dec_kind k = decorator(c, ns.v[i]);
    if (k != DEC_NONE) {
      *at = ns.v[i];
      return k;
    }
  }
  return DEC_NONE;
}

static void unsupported_entity(pkf_ctx *c, TSNode dec) {
  TSNode e = ts_node_named_child(dec, 0);
  if (pkf_type_is(e, "call"))
    e = pkf_field(e, "function");
  pki_error(c->d, pkf_span(dec), "unsupported-entity",
            "@%s is not supported yet; use @pk.workunit functions or a @pk.functor "
            "class and launch them from Python", pkf_text(c, e));
}

/* ----------------------------------------------------------- signatures */

typedef struct param {
  TSNode node, name, ann;
} param;

/* The def's parameters as (name, annotation); reports forms that are not
 * allowed (defaults, *args, **kwargs). Returns the count. */
static int get_params(pkf_ctx *c, TSNode def, param **out) {
  pkf_nodes ns = pkf_children(c, pkf_field(def, "parameters"));
  param *ps = pki_alloc(c->m->arena, sizeof *ps * (ns.n + 1));
  int n = 0;
  for (uint32_t i = 0; i < ns.n; i++) {
    TSNode p = ns.v[i];
    const char *t = ts_node_type(p);
    param q = {.node = p};
    if (!strcmp(t, "identifier")) {
      q.name = p;
    } else if (!strcmp(t, "typed_parameter")) {
      q.name = ts_node_named_child(p, 0);
      q.ann = pkf_field(p, "type");
      if (!pkf_type_is(q.name, "identifier")) {
        pki_error(c->d, pkf_span(p), "unsupported-parameter",
                  "*args and **kwargs are not supported in kernels; list the parameters");
        continue;
      }
    } else if (!strcmp(t, "default_parameter") || !strcmp(t, "typed_default_parameter")) {
      pki_error(c->d, pkf_span(p), "unsupported-parameter",
                "default values are not supported for kernel parameters; remove '= ...'");
      q.name = pkf_field(p, "name");
      q.ann = pkf_field(p, "type");
      if (!pkf_type_is(q.name, "identifier"))
        continue;
    } else if (!strcmp(t, "list_splat_pattern") || !strcmp(t, "dictionary_splat_pattern")) {
      pki_error(c->d, pkf_span(p), "unsupported-parameter",
                "*args and **kwargs are not supported in kernels; list the parameters");
      continue;
    } else {
      continue; /* '*' or '/' separators */
    }
    ps[n++] = q;
  }
  *out = ps;
  return n;
}

static bool is_int_ann(pkf_ctx *c, TSNode ann) {
  return pkf_is(c, pkf_unwrap_type(ann), "int");
}

static pki_var *typed_param(pkf_ctx *c, const param *p, pki_var_kind kind) {
  pki_type t = pki_void_type;
  if (ts_node_is_null(p->ann)) {
    pki_error(c->d, pkf_span(p->node), "missing-annotation",
              "parameter '%s' needs a type annotation, e.g. '%s: float' or "
              "'%s: pk.View1D[pk.double]'",
              pkf_text(c, p->name), pkf_text(c, p->name), pkf_text(c, p->name));
  } else if (pkf_is_acc(c, p->ann)) {
    pki_error(c->d, pkf_span(p->ann), "bad-signature",
              "pk.Acc[T] is only allowed right after the work index of a workunit");
  } else if (pkf_type(c, p->ann, false, &t) && t.kind == PKI_VOID) {
    pki_error(c->d, pkf_span(p->ann), "unknown-type", "a parameter cannot have type None");
  }
  pki_var *v = pki_new_var(c->m, pkf_text(c, p->name), kind, t, pkf_span(p->name));
  v->annotated = !ts_node_is_null(p->ann);
  return v;
}

static void workunit_sig(pkf_ctx *c, pki_func *f, TSNode def, bool method) {
  param *ps;
  int n = get_params(c, def, &ps), k = method ? 1 : 0;
  f->is_workunit = true;
  f->policy = PKI_POLICY_RANGE;
  f->pattern = PKI_PATTERN_FOR;
  if (k >= n) {
    pki_error(c->d, f->span, "bad-signature",
              "workunit '%s' needs a work index as its first parameter, e.g. 'i: int'",
              f->name);
    return;
  }
  param *ix = &ps[k++];
  if (!ts_node_is_null(ix->ann) && pkf_is_team_member(c, ix->ann)) {
    pki_error(c->d, pkf_span(ix->node), "unsupported-policy",
              "TeamPolicy workunits are not supported yet; use a RangePolicy workunit "
              "with an 'i: int' work index");
  } else if (!ts_node_is_null(ix->ann) && !is_int_ann(c, ix->ann)) {
    pki_error(c->d, pkf_span(ix->ann), "bad-signature",
              "the work index '%s' must be annotated 'int'", pkf_text(c, ix->name));
  }
  pki_var *iv = pki_new_var(c->m, pkf_text(c, ix->name), PKI_VAR_INDEX, pki_int_type,
                            pkf_span(ix->name));
  iv->annotated = true;
  pki_func_add_index(c->m, f, iv);
  if (k < n && !ts_node_is_null(ps[k].ann) && pkf_is_acc(c, ps[k].ann)) {
    pki_type t = pki_void_type;
    pkf_type(c, ps[k].ann, false, &t);
    f->acc = pki_new_var(c->m, pkf_text(c, ps[k].name), PKI_VAR_ACC, t, pkf_span(ps[k].name));
    f->acc->annotated = true;
    f->pattern = PKI_PATTERN_REDUCE;
    k++;
    if (k < n && !ts_node_is_null(ps[k].ann) && pkf_is(c, pkf_unwrap_type(ps[k].ann), "bool")) {
      f->final = pki_new_var(c->m, pkf_text(c, ps[k].name), PKI_VAR_FINAL, pki_bool_type,
                             pkf_span(ps[k].name));
      f->final->annotated = true;
      f->pattern = PKI_PATTERN_SCAN;
      k++;
    }
  }
  for (; k < n; k++)
    pki_func_add_param(c->m, f, typed_param(c, &ps[k], PKI_VAR_PARAM));
}

static void function_sig(pkf_ctx *c, pki_func *f, TSNode def, bool method) {
  param *ps;
  int n = get_params(c, def, &ps);
  for (int k = method ? 1 : 0; k < n; k++)
    pki_func_add_param(c->m, f, typed_param(c, &ps[k], PKI_VAR_PARAM));
  TSNode rt = pkf_field(def, "return_type");
  if (!ts_node_is_null(rt)) {
    pki_type t;
    if (pkf_type(c, rt, false, &t)) {
      f->ret = t;
      f->ret_annotated = true;
    }
  }
}

/* ---------------------------------------------------------------- bodies */

typedef struct pending {
  pki_entity *ent;
  pki_func *fn;
  TSNode body;
} pending;

typedef struct pendings {
  pending *v;
  int n, cap;
} pendings;

static void add_pending(pkf_ctx *c, pendings *p, pki_entity *e, pki_func *f, TSNode body) {
  if (p->n == p->cap) {
    int ncap = p->cap ? p->cap * 2 : 16;
    pending *nv = pki_alloc(c->m->arena, sizeof *nv * (size_t)ncap);
    if (p->n)
      memcpy(nv, p->v, sizeof *nv * (size_t)p->n);
    p->v = nv;
    p->cap = ncap;
  }
  p->v[p->n++] = (pending){e, f, body};
}

static void lower_func(pkf_ctx *c, const pending *p) {
  pki_func *f = p->fn;
  c->ent = p->ent;
  c->fn = f;
  c->loops = 0;
  pkf_scope root;
  c->scope = NULL;
  pkf_scope_push(c, &root, "def", f->span);
  for (int i = 0; i < f->nindex; i++)
    pkf_scope_bind(c, f->index[i]);
  if (f->acc)
    pkf_scope_bind(c, f->acc);
  if (f->final)
    pkf_scope_bind(c, f->final);
  for (int i = 0; i < f->nparams; i++)
    pkf_scope_bind(c, f->params[i]);
  pkf_lower_body(c, p->body, &f->body);
  pkf_scope_pop(c);
  c->fn = NULL;
  c->ent = NULL;
}

/* ---------------------------------------------------------------- entities */

static pki_func *new_func(pkf_ctx *c, TSNode def) {
  TSNode name = pkf_field(def, "name");
  return pki_new_func(c->m, pkf_text(c, name), pkf_span(name));
}

static bool is_async(TSNode def) {
  TSNode first = ts_node_child(def, 0);
  return pkf_type_is(first, "async");
}

static void functor_members(pkf_ctx *c, pki_entity *e, TSNode init) {
  pkf_nodes st = pkf_children(c, pkf_field(init, "body"));
  for (uint32_t i = 0; i < st.n; i++) {
    if (!pkf_type_is(st.v[i], "expression_statement"))
      continue;
    TSNode a = ts_node_named_child(st.v[i], 0);
    if (!pkf_type_is(a, "assignment"))
      continue;
    TSNode left = pkf_field(a, "left"), ann = pkf_field(a, "type");
    if (!pkf_type_is(left, "attribute") || !pkf_is(c, pkf_field(left, "object"), "self") ||
        ts_node_is_null(ann))
      continue;
    TSNode name = pkf_field(left, "attribute");
    const char *nm = pkf_text(c, name);
    if (pki_entity_member(e, nm)) {
      pki_error(c->d, pkf_span(left), "redeclaration",
                "data member 'self.%s' is declared twice; annotate it once", nm);
      continue;
    }
    pki_type t;
    if (!pkf_type(c, ann, false, &t))
      continue;
    pki_var *v = pki_new_var(c->m, nm, PKI_VAR_MEMBER, t, pkf_span(name));
    v->annotated = true;
    pki_entity_add_member(c->m, e, v);
  }
}

static void functor(pkf_ctx *c, TSNode cls, pendings *todo) {
  TSNode name = pkf_field(cls, "name");
  pki_entity *e = pki_new_entity(c->m, PKI_ENT_FUNCTOR, pkf_text(c, name), pkf_span(name));
  pki_module_add_entity(c->m, e);
  pkf_nodes body = pkf_children(c, pkf_field(cls, "body"));
  for (uint32_t i = 0; i < body.n; i++) /* members first: methods may precede __init__ */
    if (pkf_type_is(body.v[i], "function_definition") &&
        pkf_is(c, pkf_field(body.v[i], "name"), "__init__"))
      functor_members(c, e, body.v[i]);
  for (uint32_t i = 0; i < body.n; i++) {
    if (!pkf_type_is(body.v[i], "decorated_definition"))
      continue;
    TSNode dec, def = pkf_field(body.v[i], "definition");
    dec_kind k = decorators(c, body.v[i], &dec);
    if (k == DEC_UNSUPPORTED || (k == DEC_FUNCTOR && pkf_type_is(def, "class_definition"))) {
      unsupported_entity(c, dec);
      continue;
    }
    if ((k != DEC_WORKUNIT && k != DEC_FUNCTION) || !pkf_type_is(def, "function_definition"))
      continue;
    pki_func *f = new_func(c, def);
    if (k == DEC_WORKUNIT)
      workunit_sig(c, f, def, true);
    else
      function_sig(c, f, def, true);
    pki_entity_add_func(c->m, e, f);
    add_pending(c, todo, e, f, pkf_field(def, "body"));
  }
}

static void top_def(pkf_ctx *c, TSNode dd, pendings *todo) {
  TSNode dec, def = pkf_field(dd, "definition");
  dec_kind k = decorators(c, dd, &dec);
  if (k == DEC_NONE)
    return;
  if (k == DEC_UNSUPPORTED) {
    unsupported_entity(c, dec);
    return;
  }
  bool is_class = pkf_type_is(def, "class_definition");
  if (k == DEC_FUNCTOR) {
    if (is_class)
      functor(c, def, todo);
    else
      pki_error(c->d, pkf_span(dec), "bad-entity", "@pk.functor applies to a class");
    return;
  }
  if (is_class) {
    pki_error(c->d, pkf_span(dec), "bad-entity",
              "this decorator applies to a function; use @pk.functor on classes");
    return;
  }
  if (is_async(def)) {
    pki_error(c->d, pkf_span(def), "unsupported-entity",
              "async kernels are not supported; remove 'async'");
    return;
  }
  pki_func *f = new_func(c, def);
  pki_entity *e = pki_new_entity(c->m, k == DEC_WORKUNIT ? PKI_ENT_WORKUNIT : PKI_ENT_FUNCTION,
                                 f->name, f->span);
  if (k == DEC_WORKUNIT) {
    workunit_sig(c, f, def, false);
  } else {
    function_sig(c, f, def, false);
    if (c->ndf == c->capdf) {
      int ncap = c->capdf ? c->capdf * 2 : 8;
      pki_func **nv = pki_alloc(c->m->arena, sizeof *nv * (size_t)ncap);
      if (c->ndf)
        memcpy(nv, c->dfuncs, sizeof *nv * (size_t)c->ndf);
      c->dfuncs = nv;
      c->capdf = ncap;
    }
    c->dfuncs[c->ndf++] = f;
  }
  pki_entity_add_func(c->m, e, f);
  pki_module_add_entity(c->m, e);
  add_pending(c, todo, e, f, pkf_field(def, "body"));
}

void pkf_collect(pkf_ctx *c, TSNode root) {
  pkf_nodes top = pkf_children(c, root);
  for (uint32_t i = 0; i < top.n; i++) {
    if (pkf_type_is(top.v[i], "import_statement"))
      import_stmt(c, top.v[i]);
    else if (pkf_type_is(top.v[i], "import_from_statement"))
      import_from(c, top.v[i]);
  }
  pendings todo = {0};
  for (uint32_t i = 0; i < top.n; i++)
    if (pkf_type_is(top.v[i], "decorated_definition"))
      top_def(c, top.v[i], &todo);
  for (int i = 0; i < todo.n; i++)
    lower_func(c, &todo.v[i]);
}
