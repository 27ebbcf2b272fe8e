/*
 * entities.c - the module level: imports (pykokkos, math, numpy aliases),
 * module constants, decorated entities (@pk.workunit, @pk.function,
 * @pk.functor, @pk.workload with @pk.main/@pk.callback, @pk.classtype), their
 * signatures, data members and pk.ViewTypeInfo decorator arguments; then
 * lowers every body (@pk.main as host code).
 */
#include "ents.h"

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

static void import_stmt(pkf_ctx *c, TSNode st) {
  pkf_nodes ns = pkf_children(c, st);
  for (uint32_t i = 0; i < ns.n; i++) {
    TSNode name = ns.v[i], alias = {0};
    if (pkf_type_is(c, name, PKF_N_ALIASED_IMPORT)) {
      alias = pkf_field(c, name, PKF_F_ALIAS);
      name = pkf_field(c, name, PKF_F_NAME);
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
  TSNode mod = pkf_field(c, st, PKF_F_MODULE_NAME);
  bool pk = pkf_is(c, mod, "pykokkos");
  if (!pkf_is(c, mod, "math") && !pk)
    return;
  pkf_nodes ns = pkf_children(c, st);
  for (uint32_t i = 0; i < ns.n; i++) {
    TSNode name = ns.v[i], alias = {0};
    if (ts_node_eq(name, mod))
      continue;
    if (pkf_type_is(c, name, PKF_N_ALIASED_IMPORT)) {
      alias = pkf_field(c, name, PKF_F_ALIAS);
      name = pkf_field(c, name, PKF_F_NAME);
    }
    if (!pkf_type_is(c, name, PKF_N_DOTTED_NAME))
      continue;
    add_alias(c, pkf_text(c, ts_node_is_null(alias) ? name : alias), pkf_text(c, name),
              pk ? PKF_AL_PKNAME : PKF_AL_MATHNAME);
  }
}

/* ----------------------------------------------------------- decorators */

typedef enum {
  DEC_NONE, DEC_WORKUNIT, DEC_FUNCTION, DEC_FUNCTOR, DEC_WORKLOAD, DEC_MAIN, DEC_CALLBACK,
  DEC_CLASSTYPE
} dec_kind;

/* Classifies one decorator node (@pk.X or @pk.X(...)). */
static dec_kind decorator(pkf_ctx *c, TSNode dec) {
  TSNode e = pkf_named_child(c, dec, 0);
  if (pkf_type_is(c, e, PKF_N_CALL))
    e = pkf_field(c, e, PKF_F_FUNCTION);
  if (!pkf_type_is(c, e, PKF_N_ATTRIBUTE) ||
      !pkf_alias_is(c, pkf_field(c, e, PKF_F_OBJECT), PKF_AL_PK))
    return DEC_NONE;
  TSNode a = pkf_field(c, e, PKF_F_ATTRIBUTE);
  if (pkf_is(c, a, "workunit"))
    return DEC_WORKUNIT;
  if (pkf_is(c, a, "function"))
    return DEC_FUNCTION;
  if (pkf_is(c, a, "functor"))
    return DEC_FUNCTOR;
  if (pkf_is(c, a, "workload"))
    return DEC_WORKLOAD;
  if (pkf_is(c, a, "main"))
    return DEC_MAIN;
  if (pkf_is(c, a, "callback"))
    return DEC_CALLBACK;
  if (pkf_is(c, a, "classtype"))
    return DEC_CLASSTYPE;
  return DEC_NONE;
}

/* `from pykokkos import *` at the top of the file. */
static bool pk_star_import(pkf_ctx *c) {
  pkf_nodes top = pkf_children(c, c->root);
  for (uint32_t i = 0; i < top.n; i++) {
    if (!pkf_type_is(c, top.v[i], PKF_N_IMPORT_FROM_STATEMENT) ||
        !pkf_is(c, pkf_field(c, top.v[i], PKF_F_MODULE_NAME), "pykokkos"))
      continue;
    pkf_nodes ns = pkf_all_children(c, top.v[i]);
    for (uint32_t k = 0; k < ns.n; k++)
      if (!strcmp(ts_node_type(ns.v[k]), "wildcard_import"))
        return true;
  }
  return false;
}

/* A decorator written bare (`@workunit` after `from pykokkos import workunit`
 * or `import *`): pkc finds kernels by `@pk.<decorator>`, so it is reported
 * rather than the function left out of the module unsaid. */
static void bare_decorator(pkf_ctx *c, TSNode dec) {
  static const char *const names[] = {"workunit", "function", "functor", "workload",
                                      "main", "callback", "classtype"};
  TSNode e = pkf_named_child(c, dec, 0);
  if (pkf_type_is(c, e, PKF_N_CALL))
    e = pkf_field(c, e, PKF_F_FUNCTION);
  if (!pkf_type_is(c, e, PKF_N_IDENTIFIER))
    return;
  const pkf_alias *a = pkf_alias_find(c, e);
  const char *nm = a && a->kind == PKF_AL_PKNAME ? a->orig : a ? NULL : pkf_text(c, e);
  for (size_t i = 0; nm && i < sizeof names / sizeof *names; i++)
    if (!strcmp(nm, names[i]) && (a || pk_star_import(c))) {
      pki_error(c->d, pkf_span(dec), "bare-decorator",
                "pkc finds kernels by their decorator written through the module: use "
                "`import pykokkos as pk` and @pk.%s (a bare @%s from `from pykokkos import "
                "...` is not translated, as in PyKokkos)", nm, pkf_text(c, e));
      return;
    }
}

/* The first pykokkos decorator of a decorated_definition; *at gets its node. */
static dec_kind decorators(pkf_ctx *c, TSNode dd, TSNode *at) {
  pkf_nodes ns = pkf_children(c, dd);
  for (uint32_t i = 0; i < ns.n; i++) {
    if (!pkf_type_is(c, ns.v[i], PKF_N_DECORATOR))
      continue;
    dec_kind k = decorator(c, ns.v[i]);
    if (k != DEC_NONE) {
      *at = ns.v[i];
      return k;
    }
  }
  for (uint32_t i = 0; i < ns.n; i++)
    if (pkf_type_is(c, ns.v[i], PKF_N_DECORATOR))
      bare_decorator(c, ns.v[i]);
  return DEC_NONE;
}

/* ----------------------------------------------------------- signatures */

/* Whether identifier name occurs in n. */
static bool mentions(pkf_ctx *c, TSNode n, const char *name, int depth) {
  if (depth > 200)
    return false;
  if (pkf_type_is(c, n, PKF_N_IDENTIFIER))
    return pkf_is(c, n, name);
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++)
    if (mentions(c, kids.v[i], name, depth + 1))
      return true;
  return false;
}

/* Rank of the first `name[...]` in n (chained subscripts and tuple indices
 * count), 0 if name is never subscripted; *ranged: name used in an argument
 * of range(), in an index (`a[n - 1 - i]`) or with %, // or a bitwise
 * operator (`(i - 1 + n) % n`), so an integer; *updated:
 * `name += ...` (only an accumulator is updated in a kernel). */
static int subscript_rank(pkf_ctx *c, TSNode n, const char *name, bool *ranged, bool *updated,
                          int depth) {
  if (depth > 200)
    return 0;
  if (pkf_type_is(c, n, PKF_N_AUGMENTED_ASSIGNMENT) &&
      pkf_type_is(c, pkf_field(c, n, PKF_F_LEFT), PKF_N_IDENTIFIER) &&
      pkf_is(c, pkf_field(c, n, PKF_F_LEFT), name))
    *updated = true;
  if (pkf_type_is(c, n, PKF_N_SUBSCRIPT)) {
    int r = 0;
    TSNode v = n;
    while (pkf_type_is(c, v, PKF_N_SUBSCRIPT)) {
      pkf_nodes ch = pkf_children(c, v);
      for (uint32_t i = 1; i < ch.n; i++) {
        r += pkf_type_is(c, ch.v[i], PKF_N_TUPLE) || pkf_type_is(c, ch.v[i], PKF_N_EXPRESSION_LIST)
                 ? (int)pkf_named_child_count(c, ch.v[i]) : 1;
        if (mentions(c, ch.v[i], name, depth + 1))
          *ranged = true;
      }
      v = pkf_field(c, v, PKF_F_VALUE);
    }
    if (pkf_type_is(c, v, PKF_N_IDENTIFIER) && pkf_is(c, v, name))
      return r;
  }
  if (pkf_type_is(c, n, PKF_N_BINARY_OPERATOR)) { /* `(i - 1 + n) % n`: index arithmetic */
    TSNode op = pkf_field(c, n, PKF_F_OPERATOR);
    static const char *const int_ops[] = {"%", "//", "<<", ">>", "&", "|", "^"};
    for (size_t k = 0; k < sizeof int_ops / sizeof *int_ops; k++)
      if (pkf_is(c, op, int_ops[k]) && (mentions(c, pkf_field(c, n, PKF_F_LEFT), name, depth + 1) ||
                                         mentions(c, pkf_field(c, n, PKF_F_RIGHT), name, depth + 1)))
        *ranged = true;
  }
  if (pkf_type_is(c, n, PKF_N_CALL) && pkf_is(c, pkf_field(c, n, PKF_F_FUNCTION), "range")) {
    pkf_nodes a = pkf_children(c, pkf_field(c, n, PKF_F_ARGUMENTS));
    for (uint32_t i = 0; i < a.n; i++)
      if (mentions(c, a.v[i], name, depth + 1))
        *ranged = true;
  }
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++) {
    int r = subscript_rank(c, kids.v[i], name, ranged, updated, depth + 1);
    if (r)
      return r;
  }
  return 0;
}

/* The annotation to suggest for unannotated kernel parameter pn, from how
 * the body uses it: a View of the rank it is indexed with, an accumulator if
 * it is updated (`pn += x`), an int where it takes part in an index or a
 * range() bound, else a float. */
static const char *suggest_annotation(pkf_ctx *c, TSNode def, const char *pn) {
  bool ranged = false, updated = false;
  int r = subscript_rank(c, pkf_field(c, def, PKF_F_BODY), pn, &ranged, &updated, 0);
  if (r >= 1 && r <= 8)
    return pki_sprintf(c->m->arena, "pk.View%dD[pk.double]", r);
  return updated ? "pk.Acc[pk.double]" : ranged ? "int" : "float";
}

/* Type of unannotated parameter pn of FunctionSty workunit f: the run-time
 * specialization's signature, else call-site inference, else it is left to
 * run time (f->runtime_typed; a note) or, with --strict-types, an error. */
static pki_type unannotated_kernel_param(pkf_ctx *c, const pkf_param *p, pki_func *f,
                                          const char *pn) {
  TSNode def = pkf_parent(c, pkf_parent(c, p->node));
  pki_type t = pki_void_type;
  if (c->spec && !strcmp(c->spec->kernel, f->name)) {
    if (pkf_spec_type(c->spec, pn, &t))
      return t;
    pki_error(c->d, pkf_span(p->node), "bad-specialization",
              "the specialization of '%s' gives no type for parameter '%s'", f->name, pn);
    return t;
  }
  if (pkf_infer_param(c, f->name, pn, &t)) {
    f->inferred = true;
    return t;
  }
  if (c->strict_types) {
    pki_error(c->d, pkf_span(p->node), "cannot-infer",
              "cannot infer the type of parameter '%s' of '%s' from its call sites; "
              "annotate it (%s: %s)", pn, f->name, pn, suggest_annotation(c, def, pn));
  } else {
    f->runtime_typed = true;
    pki_note(c->d, pkf_span(p->node), "runtime-typed",
             "the type of parameter '%s' of '%s' is taken from the arguments at run time "
             "(a specialization is built per argument signature); annotate it to build it "
             "ahead of time (%s: %s)", pn, f->name, pn, suggest_annotation(c, def, pn));
  }
  return t;
}

/* kernel: the FunctionSty workunit whose unannotated parameters are inferred
 * from its call sites (NULL: an annotation is required). */
static pki_var *typed_param(pkf_ctx *c, const pkf_param *p, pki_var_kind kind, pki_func *kernel) {
  pki_type t = pki_void_type;
  const char *pn = pkf_text(c, p->name);
  if (ts_node_is_null(p->ann) && kernel) {
    t = unannotated_kernel_param(c, p, kernel, pn);
  } else if (ts_node_is_null(p->ann)) {
    pki_error(c->d, pkf_span(p->node), "missing-annotation",
              "parameter '%s' needs a type annotation, e.g. '%s: float', "
              "'%s: pk.View1D[pk.double]' or, for a random pool's state, "
              "'%s: pk.Random_XorShift64'",
              pn, pn, pn, pn);
  } else if (pkf_is_acc(c, p->ann)) {
    pki_error(c->d, pkf_span(p->ann), "bad-signature",
              "pk.Acc[T] is only allowed right after the work index of a workunit");
  } else if (pkf_type(c, p->ann, false, &t) && t.kind == PKI_VOID) {
    pki_error(c->d, pkf_span(p->ann), "unknown-type", "a parameter cannot have type None");
  } else if (t.kind == PKI_ARRAY) {
    pki_error(c->d, pkf_span(p->ann), "list-parameter",
              "parameter '%s' is a List, whose length pkc cannot know from the annotation; "
              "pass a View (pk.View1D[...]) or the elements as separate parameters", pn);
    t = pki_void_type;
  }
  pki_var *v = pki_new_var(c->m, pkf_text(c, p->name), kind, t, pkf_span(p->name));
  v->annotated = !ts_node_is_null(p->ann);
  return v;
}

/* A specialization of workunit f for Views of another layout (PyKokkos builds
 * one per layout of the Views a call passes, annotated or not): an annotated
 * View parameter whose annotation and decorator leave the layout to the
 * default takes the layout the signature gives for a View of its rank. */
static void spec_layouts(pkf_ctx *c, pki_func *f) {
  if (!c->spec || strcmp(c->spec->kernel, f->name))
    return;
  for (int i = 0; i < f->nparams; i++) {
    pki_var *v = f->params[i];
    pki_type t;
    if (v->annotated && v->type.kind == PKI_VIEW && v->type.layout == PKI_LAYOUT_DEFAULT &&
        !pki_is_class_view(v->type) && pkf_spec_type(c->spec, v->name, &t) &&
        t.kind == PKI_VIEW && t.rank == v->type.rank &&
        (t.layout == PKI_LAYOUT_LEFT || t.layout == PKI_LAYOUT_RIGHT))
      v->type.layout = t.layout;
  }
}

static void workunit_sig(pkf_ctx *c, pki_func *f, TSNode def, bool method) {
  pkf_param *ps;
  int n = pkf_params(c, def, true, &ps), k = method ? 1 : 0;
  f->is_workunit = true;
  f->policy = PKI_POLICY_RANGE;
  f->pattern = PKI_PATTERN_FOR;
  if (k >= n) {
    pki_error(c->d, f->span, "bad-signature",
              "workunit '%s' needs a work index as its first parameter, e.g. 'i: int'",
              f->name);
    return;
  }
  for (int i = 0; i < n; i++)
    if (!ts_node_is_null(ps[i].dflt))
      pki_error(c->d, pkf_span(ps[i].node), "unsupported-parameter",
                "default values are not supported for kernel parameters; remove '= ...' "
                "(pass the value at the launch)");
  k = pkf_workunit_head(c, f, def, ps, n, k); /* kernels helper: index(es), acc, final */
  for (; k < n; k++)
    pki_func_add_param(c->m, f, typed_param(c, &ps[k], PKI_VAR_PARAM, method ? NULL : f));
}

static void function_sig(pkf_ctx *c, pki_func *f, TSNode def, bool method) {
  pkf_param *ps;
  int n = pkf_params(c, def, true, &ps);
  for (int k = method ? 1 : 0; k < n; k++) {
    pki_var *v = typed_param(c, &ps[k], PKI_VAR_PARAM, NULL);
    pki_func_add_param(c->m, f, v);
    if (!ts_node_is_null(ps[k].dflt)) { /* a call may leave it out (lower_expr.c) */
      c->defaults = pki_grow(c->m->arena, c->defaults, c->ndefaults, &c->capdefaults,
                             sizeof *c->defaults);
      c->defaults[c->ndefaults++] = (struct pkf_default){v, ps[k].dflt};
    }
  }
  TSNode rt = pkf_field(c, def, PKF_F_RETURN_TYPE);
  if (!ts_node_is_null(rt)) {
    pki_type t;
    if (pkf_type(c, rt, false, &t)) {
      f->ret = t;
      f->ret_annotated = true;
    }
  }
}

/* ------------------------------------------------------- pk.ViewTypeInfo */

/* Last attribute name of pk.X / pk.Y.X (NULL if n is not such a spelling). */
static const char *pk_leaf(pkf_ctx *c, TSNode n) {
  if (!pkf_type_is(c, n, PKF_N_ATTRIBUTE))
    return NULL;
  TSNode o = pkf_field(c, n, PKF_F_OBJECT);
  while (pkf_type_is(c, o, PKF_N_ATTRIBUTE))
    o = pkf_field(c, o, PKF_F_OBJECT);
  return pkf_alias_is(c, o, PKF_AL_PK) ? pkf_text(c, pkf_field(c, n, PKF_F_ATTRIBUTE)) : NULL;
}

static bool info_layout(pkf_ctx *c, TSNode v, pki_type *t) {
  const char *l = pk_leaf(c, v);
  bool cls = pki_is_class_view(*t), soa = l && !strcmp(l, "SoA");
  if (l && (soa || !strcmp(l, "AoS")) && cls) { /* Views of classtypes (DIALECT.md 3.4) */
    t->layout = soa ? PKI_LAYOUT_SOA : PKI_LAYOUT_AOS;
    return true;
  }
  if (cls && !(l && !strcmp(l, "LayoutDefault"))) {
    pki_error(c->d, pkf_span(v), "bad-view-info",
              "a View of classtype '%s' has layout pk.AoS or pk.SoA, not '%s'", t->cls->name,
              pkf_text(c, v));
    return false;
  }
  if (l && (soa || !strcmp(l, "AoS"))) {
    pki_error(c->d, pkf_span(v), "bad-view-info",
              "'%s' is a layout of Views of classtypes; a View of scalars has pk.LayoutLeft or "
              "pk.LayoutRight", pkf_text(c, v));
    return false;
  }
  if (l && !strcmp(l, "LayoutLeft")) t->layout = PKI_LAYOUT_LEFT;
  else if (l && !strcmp(l, "LayoutRight")) t->layout = PKI_LAYOUT_RIGHT;
  else if (l && !strcmp(l, "LayoutDefault")) t->layout = PKI_LAYOUT_DEFAULT;
  else {
    pki_error(c->d, pkf_span(v), "bad-view-info",
              "unknown layout '%s'; use pk.LayoutLeft or pk.LayoutRight", pkf_text(c, v));
    return false;
  }
  return true;
}

static bool info_trait(pkf_ctx *c, TSNode v, pki_type *t) {
  if (pkf_type_is(c, v, PKF_N_BINARY_OPERATOR) && pkf_is(c, pkf_field(c, v, PKF_F_OPERATOR), "|"))
    return info_trait(c, pkf_field(c, v, PKF_F_LEFT), t) &&
           info_trait(c, pkf_field(c, v, PKF_F_RIGHT), t);
  static const struct { const char *n; unsigned bit; } traits[] = {
      {"Atomic", PKI_TRAIT_ATOMIC}, {"RandomAccess", PKI_TRAIT_RANDOM_ACCESS},
      {"Restrict", PKI_TRAIT_RESTRICT}, {"Unmanaged", PKI_TRAIT_UNMANAGED}};
  const char *l = pk_leaf(c, v);
  for (size_t i = 0; l && i < sizeof traits / sizeof traits[0]; i++)
    if (!strcmp(l, traits[i].n)) {
      t->traits |= traits[i].bit;
      return true;
    }
  pki_error(c->d, pkf_span(v), "bad-view-info",
            "unknown memory trait '%s'; use pk.Atomic, pk.RandomAccess, pk.Restrict or "
            "pk.Unmanaged", pkf_text(c, v));
  return false;
}

static bool info_space(pkf_ctx *c, TSNode v, pki_type *t) {
  const char *l = pk_leaf(c, v);
  if (l && !strcmp(l, "HostSpace")) t->space = PKI_SPACE_HOST;
  else if (l && (!strcmp(l, "CudaSpace") || !strcmp(l, "HIPSpace") || !strcmp(l, "CudaUVMSpace") ||
                 !strcmp(l, "Default") || !strcmp(l, "DefaultSpace")))
    t->space = PKI_SPACE_DEFAULT;
  else {
    pki_error(c->d, pkf_span(v), "bad-view-info",
              "unknown memory space '%s'; use pk.HostSpace (or leave it out for the "
              "execution space's memory)", pkf_text(c, v));
    return false;
  }
  return true;
}

/* One NAME=pk.ViewTypeInfo(layout=..., trait=..., space=...) applied to v. */
static void view_info(pkf_ctx *c, TSNode kw, pki_var *v) {
  TSNode val = pkf_field(c, kw, PKF_F_VALUE), name = pkf_field(c, kw, PKF_F_NAME);
  TSNode fn = pkf_field(c, val, PKF_F_FUNCTION);
  if (!pkf_type_is(c, val, PKF_N_CALL) || !pk_leaf(c, fn) ||
      strcmp(pk_leaf(c, fn), "ViewTypeInfo")) {
    pki_error(c->d, pkf_span(val), "bad-view-info",
              "decorator arguments must be pk.ViewTypeInfo(layout=..., trait=..., space=...)");
    return;
  }
  if (!v) {
    pki_error(c->d, pkf_span(name), "bad-view-info",
              "'%s' is not a parameter or data member of this kernel", pkf_text(c, name));
    return;
  }
  if (v->type.kind != PKI_VIEW) {
    if (v->type.kind != PKI_VOID)
      pki_error(c->d, pkf_span(name), "bad-view-info",
                "'%s' is not a View; pk.ViewTypeInfo applies to Views only", v->name);
    return;
  }
  pkf_nodes a = pkf_children(c, pkf_field(c, val, PKF_F_ARGUMENTS));
  pki_type t = v->type;
  for (uint32_t i = 0; i < a.n; i++) {
    TSNode k = pkf_field(c, a.v[i], PKF_F_NAME), x = pkf_field(c, a.v[i], PKF_F_VALUE);
    if (!pkf_type_is(c, a.v[i], PKF_N_KEYWORD_ARGUMENT)) {
      pki_error(c->d, pkf_span(a.v[i]), "bad-view-info",
                "pk.ViewTypeInfo takes keyword arguments: layout=, trait=, space=");
      return;
    }
    bool ok = pkf_is(c, k, "layout") ? info_layout(c, x, &t)
              : pkf_is(c, k, "trait") || pkf_is(c, k, "traits") ? info_trait(c, x, &t)
              : pkf_is(c, k, "space") ? info_space(c, x, &t) : false;
    if (!ok && !pkf_is(c, k, "layout") && !pkf_is(c, k, "trait") && !pkf_is(c, k, "traits") &&
        !pkf_is(c, k, "space"))
      pki_error(c->d, pkf_span(k), "bad-view-info",
                "unknown pk.ViewTypeInfo argument '%s'; use layout=, trait= or space=",
                pkf_text(c, k));
    if (!ok)
      return;
  }
  if (pki_is_class_view(t) && (t.traits || t.space != PKI_SPACE_DEFAULT)) {
    pki_error(c->d, pkf_span(val), "bad-view-info",
              "a View of classtype '%s' takes pk.ViewTypeInfo(layout=pk.AoS or pk.SoA) only; "
              "traits and spaces are not supported for it yet", t.cls->name);
    return;
  }
  v->type = t;
}

static pki_var *find_var(pki_var **vs, int n, TSNode name, pkf_ctx *c) {
  for (int i = 0; i < n; i++)
    if (pkf_is(c, name, vs[i]->name))
      return vs[i];
  return NULL;
}

/* Applies the keyword arguments of decorator dec to params or members. */
static void view_infos(pkf_ctx *c, TSNode dec, pki_var **vs, int n) {
  TSNode e = pkf_named_child(c, dec, 0);
  if (!pkf_type_is(c, e, PKF_N_CALL))
    return;
  pkf_nodes a = pkf_children(c, pkf_field(c, e, PKF_F_ARGUMENTS));
  for (uint32_t i = 0; i < a.n; i++) {
    if (!pkf_type_is(c, a.v[i], PKF_N_KEYWORD_ARGUMENT)) {
      pki_error(c->d, pkf_span(a.v[i]), "bad-view-info",
                "decorator arguments are NAME=pk.ViewTypeInfo(...), one per View");
      continue;
    }
    TSNode name = pkf_field(c, a.v[i], PKF_F_NAME);
    if (pkf_is(c, name, "scratch") &&
        pkf_type_is(c, pkf_field(c, a.v[i], PKF_F_VALUE), PKF_N_LIST))
      continue; /* PyKokkos' scratch=[(T, lambda p: n[, level]), ...]: sized by the shim */
    view_info(c, a.v[i], find_var(vs, n, name, c));
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
  p->v = pki_grow(c->m->arena, p->v, p->n, &p->cap, sizeof *p->v);
  p->v[p->n++] = (pending){e, f, body};
}

static void lower_func(pkf_ctx *c, const pending *p) {
  pki_func *f = p->fn;
  c->ent = p->ent;
  c->fn = f;
  c->loops = 0;
  c->host = f->is_main;
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
  c->host = false;
  c->fn = NULL;
  c->ent = NULL;
}

/* ---------------------------------------------------------------- entities */

static pki_func *new_func(pkf_ctx *c, TSNode def) {
  TSNode name = pkf_field(c, def, PKF_F_NAME);
  return pki_new_func(c->m, pkf_text(c, name), pkf_span(name));
}

static bool is_async(pkf_ctx *c, TSNode def) {
  TSNode first = ts_node_child(def, 0);
  return pkf_type_is(c, first, PKF_N_ASYNC);
}

/* A member annotated `from` and later `to` takes `to` when a value of one converts
 * to the other: scalars among scalars, a list or View of numbers to a View or list. */
static bool retype_ok(pki_type from, pki_type to) {
  bool fs = pki_is_numeric(from.kind), ts = pki_is_numeric(to.kind);
  bool fa = from.kind == PKI_VIEW || from.kind == PKI_ARRAY;
  bool ta = to.kind == PKI_VIEW || to.kind == PKI_ARRAY;
  return (fs && ts) || (fa && ta);
}

/* `list`, `dict`, `set`, `tuple`, `str`, `object`, `Any` or Dict[...]/Tuple[...]:
 * a Python object, which only host code (callbacks, the caller) uses. */
static bool python_object_annotation(pkf_ctx *c, TSNode ann) {
  static const char *const names[] = {"list", "dict", "set", "tuple", "str", "object", "Any",
                                      "Dict", "Set", "Tuple", "Optional"};
  TSNode n = pkf_unwrap_type(c, ann);
  if (pkf_type_is(c, n, PKF_N_SUBSCRIPT) || pkf_type_is(c, n, PKF_N_GENERIC_TYPE))
    n = pkf_type_is(c, n, PKF_N_SUBSCRIPT) ? pkf_field(c, n, PKF_F_VALUE) : pkf_named_child(c, n, 0);
  if (pkf_type_is(c, n, PKF_N_ATTRIBUTE)) /* typing.Dict */
    n = pkf_field(c, n, PKF_F_ATTRIBUTE);
  if (!pkf_type_is(c, n, PKF_N_IDENTIFIER))
    return false;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (pkf_is(c, n, names[i]))
      return true;
  return false;
}

static void functor_members(pkf_ctx *c, pki_entity *e, TSNode init) {
  pkf_nodes st = pkf_children(c, pkf_field(c, init, PKF_F_BODY));
  for (uint32_t i = 0; i < st.n; i++) {
    if (!pkf_type_is(c, st.v[i], PKF_N_EXPRESSION_STATEMENT))
      continue;
    TSNode a = pkf_named_child(c, st.v[i], 0);
    if (!pkf_type_is(c, a, PKF_N_ASSIGNMENT))
      continue;
    TSNode left = pkf_field(c, a, PKF_F_LEFT), ann = pkf_field(c, a, PKF_F_TYPE);
    if (!pkf_type_is(c, left, PKF_N_ATTRIBUTE) ||
        !pkf_is(c, pkf_field(c, left, PKF_F_OBJECT), "self") || ts_node_is_null(ann))
      continue;
    TSNode name = pkf_field(c, left, PKF_F_ATTRIBUTE);
    const char *nm = pkf_text(c, name);
    pki_type t;
    bool python = python_object_annotation(c, ann);
    if (!python && !pkf_type(c, ann, false, &t))
      continue;
    if (python || t.kind == PKI_ARRAY) { /* a Python list (dict, ...) member: host code only (ExaMiniMD's) */
      struct pkf_ents *es = pkf_ents_get(c);
      es->pylists = pki_grow(c->m->arena, es->pylists, es->npyl, &es->cappyl,
                             sizeof *es->pylists);
      es->pylists[es->npyl++] = (pkf_callback){e, nm};
      continue;
    }
    pki_var *prev = pki_entity_member(e, nm);
    if (prev && pki_type_eq(prev->type, t))
      continue; /* annotated again with the same type (PyKokkos accepts it) */
    if (prev && retype_ok(prev->type, t)) { /* PyKokkos takes the later annotation */
      pki_warning(c->d, pkf_span(left), "member-retyped",
                  "data member 'self.%s' is declared as %s and again as %s; kernels see it "
                  "as %s (the later annotation, as in PyKokkos)", nm,
                  pki_type_str(c->m->arena, prev->type), pki_type_str(c->m->arena, t),
                  pki_type_str(c->m->arena, t));
      prev->type = t;
      prev->span = pkf_span(name);
      continue;
    }
    if (prev) {
      pki_error(c->d, pkf_span(left), "redeclaration",
                "data member 'self.%s' is declared as %s and again as %s, which do not "
                "convert into each other; give it one type",
                nm, pki_type_str(c->m->arena, prev->type), pki_type_str(c->m->arena, t));
      continue;
    }
    pki_var *v = pki_new_var(c->m, nm, PKI_VAR_MEMBER, t, pkf_span(name));
    v->annotated = true;
    pki_entity_add_member(c->m, e, v);
  }
}

static TSNode find_init(pkf_ctx *c, pkf_nodes body) {
  for (uint32_t i = 0; i < body.n; i++)
    if (pkf_type_is(c, body.v[i], PKF_N_FUNCTION_DEFINITION) &&
        pkf_is(c, pkf_field(c, body.v[i], PKF_F_NAME), "__init__"))
      return body.v[i];
  return (TSNode){0};
}

static void add_callback(pkf_ctx *c, pki_entity *e, TSNode def) {
  struct pkf_ents *s = pkf_ents_get(c);
  s->cbs = pki_grow(c->m->arena, s->cbs, s->ncb, &s->capcb, sizeof *s->cbs);
  s->cbs[s->ncb++] = (pkf_callback){e, pkf_text(c, pkf_field(c, def, PKF_F_NAME))};
}

/* One decorated method of a functor or workload. Returns the main func, if it is one. */
static pki_func *class_method(pkf_ctx *c, pki_entity *e, TSNode dd, pendings *todo) {
  TSNode dec, def = pkf_field(c, dd, PKF_F_DEFINITION);
  dec_kind k = decorators(c, dd, &dec);
  bool fn_def = pkf_type_is(c, def, PKF_N_FUNCTION_DEFINITION);
  if (k == DEC_CALLBACK && fn_def) {
    add_callback(c, e, def);
    return NULL;
  }
  if (k == DEC_MAIN && e->kind == PKI_ENT_FUNCTOR) {
    pki_error(c->d, pkf_span(dec), "bad-entity",
              "@pk.main is only allowed in a @pk.workload class; decorate '%s' with "
              "@pk.workload instead of @pk.functor", e->name);
    return NULL;
  }
  if (k == DEC_FUNCTOR || k == DEC_WORKLOAD || k == DEC_CLASSTYPE) {
    pki_error(c->d, pkf_span(dec), "bad-entity", "entities cannot be nested in a class");
    return NULL;
  }
  if ((k != DEC_WORKUNIT && k != DEC_FUNCTION && k != DEC_MAIN) || !fn_def)
    return NULL;
  pki_func *f = new_func(c, def);
  if (k == DEC_WORKUNIT) {
    workunit_sig(c, f, def, true);
    view_infos(c, dec, f->params, f->nparams);
  } else if (k == DEC_FUNCTION) {
    function_sig(c, f, def, true);
  } else {
    f->is_main = true;
    pkf_nodes ps = pkf_children(c, pkf_field(c, def, PKF_F_PARAMETERS));
    if (ps.n != 1)
      pki_error(c->d, pkf_span(pkf_field(c, def, PKF_F_PARAMETERS)), "bad-signature",
                "a @pk.main method takes only 'self'; keep its inputs in data members");
  }
  pki_entity_add_func(c->m, e, f);
  add_pending(c, todo, e, f, pkf_field(c, def, PKF_F_BODY));
  return f->is_main ? f : NULL;
}

/* The top-level class of the file named by identifier name (decorated or
 * not), or null. */
static TSNode top_class(pkf_ctx *c, TSNode name) {
  pkf_nodes top = pkf_children(c, c->root);
  for (uint32_t i = 0; i < top.n; i++) {
    TSNode d = top.v[i];
    if (pkf_type_is(c, d, PKF_N_DECORATED_DEFINITION))
      d = pkf_field(c, d, PKF_F_DEFINITION);
    if (pkf_type_is(c, d, PKF_N_CLASS_DEFINITION) &&
        pkf_is(c, pkf_field(c, d, PKF_F_NAME), pkf_text(c, name)))
      return d;
  }
  return (TSNode){0};
}

/* The data members the base classes of cls in this file declare in their
 * __init__ (`class ForceLJ(Force)`, Force's `self.f: pk.View2D[...]`), bases
 * of bases first; the instance holds them as its own (depth: a cycle guard). */
static void base_members(pkf_ctx *c, pki_entity *e, TSNode cls, int depth) {
  pkf_nodes sup = pkf_children(c, pkf_field(c, cls, PKF_F_SUPERCLASSES));
  for (uint32_t i = 0; i < sup.n && depth < 8; i++) {
    TSNode b = pkf_type_is(c, sup.v[i], PKF_N_IDENTIFIER) ? top_class(c, sup.v[i]) : (TSNode){0};
    if (ts_node_is_null(b) || ts_node_eq(b, cls))
      continue;
    base_members(c, e, b, depth + 1);
    TSNode init = find_init(c, pkf_children(c, pkf_field(c, b, PKF_F_BODY)));
    if (!ts_node_is_null(init))
      functor_members(c, e, init);
  }
}

/* @pk.functor / @pk.workload class (dec: the decorator, for ViewTypeInfo args). */
static void functor(pkf_ctx *c, TSNode cls, TSNode dec, bool workload, pendings *todo) {
  TSNode name = pkf_field(c, cls, PKF_F_NAME);
  pki_entity *e = pki_new_entity(c->m, workload ? PKI_ENT_WORKLOAD : PKI_ENT_FUNCTOR,
                                 pkf_text(c, name), pkf_span(name));
  e->extent = pkf_span(pkf_parent(c, cls));
  pki_module_add_entity(c->m, e);
  pkf_nodes body = pkf_children(c, pkf_field(c, cls, PKF_F_BODY));
  TSNode init = find_init(c, body); /* members first: methods may precede __init__ */
  base_members(c, e, cls, 0);
  if (!ts_node_is_null(init))
    functor_members(c, e, init);
  view_infos(c, dec, e->members, e->nmembers);
  pki_func *main = NULL;
  for (uint32_t i = 0; i < body.n; i++) {
    if (!pkf_type_is(c, body.v[i], PKF_N_DECORATED_DEFINITION))
      continue;
    pki_func *m = class_method(c, e, body.v[i], todo);
    if (m && main)
      pki_error(c->d, m->span, "bad-entity",
                "workload '%s' has two @pk.main methods ('%s' at %u:%u); keep one", e->name,
                main->name, main->span.line, main->span.col);
    else if (m)
      main = m;
  }
  if (workload && !main)
    e->kind = PKI_ENT_FUNCTOR; /* no @pk.main: it behaves as a functor (PyKokkos) */
}

/* Pass 1 for classtypes: the entity, so that annotations anywhere can name it. */
static void classtype_declare(pkf_ctx *c, TSNode cls) {
  TSNode name = pkf_field(c, cls, PKF_F_NAME);
  pki_entity *e = pki_new_entity(c->m, PKI_ENT_CLASSTYPE, pkf_text(c, name), pkf_span(name));
  e->extent = pkf_span(pkf_parent(c, cls));
  pki_module_add_entity(c->m, e);
  struct pkf_ents *s = pkf_ents_get(c);
  s->classes = pki_grow(c->m->arena, s->classes, s->ncls, &s->capcls, sizeof *s->classes);
  s->classes[s->ncls++] = e;
}

/* Pass 2: ctor, fields, methods. */
static void classtype(pkf_ctx *c, TSNode cls, pendings *todo) {
  pki_entity *e = pkf_classtype_find(c, pkf_field(c, cls, PKF_F_NAME));
  pkf_nodes body = pkf_children(c, pkf_field(c, cls, PKF_F_BODY));
  TSNode init = find_init(c, body);
  if (!ts_node_is_null(init)) {
    pki_func *f = new_func(c, init);
    f->is_ctor = f->is_method = true;
    function_sig(c, f, init, true);
    pki_entity_add_func(c->m, e, f);
    pkf_classtype_fields(c, e, init);
    add_pending(c, todo, e, f, pkf_field(c, init, PKF_F_BODY));
  }
  for (uint32_t i = 0; i < body.n; i++) {
    if (pkf_type_is(c, body.v[i], PKF_N_FUNCTION_DEFINITION) && !ts_node_eq(body.v[i], init)) {
      /* every method of a classtype is a device function (PyKokkos) */
      pki_func *f = new_func(c, body.v[i]);
      f->is_method = true;
      function_sig(c, f, body.v[i], true);
      pki_entity_add_func(c->m, e, f);
      add_pending(c, todo, e, f, pkf_field(c, body.v[i], PKF_F_BODY));
      continue;
    }
    if (!pkf_type_is(c, body.v[i], PKF_N_DECORATED_DEFINITION))
      continue;
    TSNode dec, def = pkf_field(c, body.v[i], PKF_F_DEFINITION);
    dec_kind k = decorators(c, body.v[i], &dec);
    if (k == DEC_NONE || k == DEC_CALLBACK)
      continue;
    if (k != DEC_FUNCTION || !pkf_type_is(c, def, PKF_N_FUNCTION_DEFINITION)) {
      pki_error(c->d, pkf_span(dec), "bad-entity",
                "a @pk.classtype has an __init__ and @pk.function methods only");
      continue;
    }
    pki_func *f = new_func(c, def);
    f->is_method = true;
    function_sig(c, f, def, true);
    pki_entity_add_func(c->m, e, f);
    add_pending(c, todo, e, f, pkf_field(c, def, PKF_F_BODY));
  }
}

/* A @pk-decorated definition: the decorated_definition, its first pykokkos
 * decorator and what that decorator is. */
typedef struct pk_def {
  TSNode dd, dec;
  dec_kind kind;
} pk_def;

static bool is_classtype_def(pkf_ctx *c, const pk_def *d) {
  return d->kind == DEC_CLASSTYPE &&
         pkf_type_is(c, pkf_field(c, d->dd, PKF_F_DEFINITION), PKF_N_CLASS_DEFINITION);
}

/* A module-level function as an entity: a workunit when dec (its @pk.workunit
 * decorator) is given, else a device function; extent: the whole definition. */
static void func_entity(pkf_ctx *c, TSNode def, TSNode extent, TSNode dec, pendings *todo) {
  pki_func *f = new_func(c, def);
  bool wu = !ts_node_is_null(dec);
  pki_entity *e = pki_new_entity(c->m, wu ? PKI_ENT_WORKUNIT : PKI_ENT_FUNCTION, f->name,
                                 f->span);
  e->extent = pkf_span(extent);
  if (wu) {
    workunit_sig(c, f, def, false);
    view_infos(c, dec, f->params, f->nparams);
    spec_layouts(c, f);
  } else {
    function_sig(c, f, def, false);
    c->dfuncs = pki_grow(c->m->arena, c->dfuncs, c->ndf, &c->capdf, sizeof *c->dfuncs);
    c->dfuncs[c->ndf++] = f;
  }
  pki_entity_add_func(c->m, e, f);
  pki_module_add_entity(c->m, e);
  add_pending(c, todo, e, f, pkf_field(c, def, PKF_F_BODY));
}

static void top_def(pkf_ctx *c, const pk_def *d, pendings *todo) {
  TSNode dd = d->dd, dec = d->dec, def = pkf_field(c, dd, PKF_F_DEFINITION);
  dec_kind k = d->kind;
  bool is_class = pkf_type_is(c, def, PKF_N_CLASS_DEFINITION);
  if (k == DEC_MAIN || k == DEC_CALLBACK) {
    pki_error(c->d, pkf_span(dec), "bad-entity",
              "@pk.main and @pk.callback decorate methods of a @pk.workload class");
    return;
  }
  if (k == DEC_FUNCTOR || k == DEC_WORKLOAD || k == DEC_CLASSTYPE) {
    if (!is_class)
      pki_error(c->d, pkf_span(dec), "bad-entity", "@%s applies to a class",
                pkf_text(c, pkf_named_child(c, dec, 0)));
    else if (k == DEC_CLASSTYPE)
      classtype(c, def, todo);
    else
      functor(c, def, dec, k == DEC_WORKLOAD, todo);
    return;
  }
  if (is_class) {
    pki_error(c->d, pkf_span(dec), "bad-entity",
              "this decorator applies to a function; use @pk.functor on classes");
    return;
  }
  if (is_async(c, def)) {
    pki_error(c->d, pkf_span(def), "unsupported-entity",
              "async kernels are not supported; remove 'async'");
    return;
  }
  func_entity(c, def, dd, k == DEC_WORKUNIT ? dec : (TSNode){0}, todo);
}

/* The @pk-decorated definitions of the file, in source order: at module level
 * and nested in host functions or blocks (PyKokkos reads a workunit's source
 * wherever it is defined), but not inside another pk entity. */
static pk_def *pk_definitions(pkf_ctx *c, TSNode root, uint32_t *count) {
  pk_def *defs = NULL;
  uint32_t n_defs = 0, cap = 0;
  pkf_stack st = {0};
  pkf_nodes top = pkf_children(c, root);
  for (uint32_t i = top.n; i-- > 0;)
    pkf_push(c, &st, top.v[i]);
  while (st.n) {
    TSNode n = st.v[--st.n];
    pk_def d = {.dd = n};
    if (pkf_type_is(c, n, PKF_N_DECORATED_DEFINITION) &&
        (d.kind = decorators(c, n, &d.dec)) != DEC_NONE) {
      if (n_defs == cap) {
        cap = cap ? cap * 2 : 16;
        pk_def *v = pki_alloc(c->m->arena, sizeof *v * cap);
        if (n_defs)
          memcpy(v, defs, sizeof *v * n_defs);
        defs = v;
      }
      defs[n_defs++] = d;
      continue;
    }
    if (pkf_type_is(c, n, PKF_N_CLASS_DEFINITION) || pkf_type_is(c, n, PKF_N_LAMBDA))
      continue;
    pkf_nodes kids = pkf_named_children(c, n);
    for (uint32_t i = kids.n; i-- > 0;) {
      TSNode ch = kids.v[i];
      pkf_ntype t = pkf_ntype_of(c, ch);
      if (t == PKF_N_BLOCK || t == PKF_N_FUNCTION_DEFINITION || t == PKF_N_DECORATED_DEFINITION ||
          pkf_statement_like(c, ch))
        pkf_push(c, &st, ch);
    }
  }
  *count = n_defs;
  return defs;
}

/* ---------------------------------------------- implicit device functions */

static bool is_dfunc_name(pkf_ctx *c, TSNode name) {
  for (int i = 0; i < c->ndf; i++)
    if (pkf_is(c, name, c->dfuncs[i]->name))
      return true;
  return false;
}

/* An undecorated function a kernel calls becomes a device function, as PyKokkos
 * translates the functions a workunit reaches (upstream's implicit functions). */
static void implicit_function(pkf_ctx *c, TSNode def, pendings *todo) {
  func_entity(c, def, def, (TSNode){0}, todo);
}

static void *box_node(pkf_ctx *c, TSNode n) {
  TSNode *p = pki_alloc(c->m->arena, sizeof *p);
  *p = n;
  return p;
}

/* Adds the undecorated module-level functions that the pending bodies call,
 * transitively (the list grows while it is walked). */
static void implicit_functions(pkf_ctx *c, pendings *todo) {
  for (int i = 0; i < todo->n; i++) {
    pki_vec stack = {0};
    pki_vec_push(c->m->arena, &stack, box_node(c, todo->v[i].body));
    while (stack.n) {
      TSNode n = *(TSNode *)stack.items[--stack.n];
      if (pkf_type_is(c, n, PKF_N_CALL)) {
        TSNode fn = pkf_field(c, n, PKF_F_FUNCTION), def;
        /* a kernel's log(x) is the math function even beside a module-level
         * `def log` (PyKokkos: the intrinsic takes precedence) */
        if (pkf_type_is(c, fn, PKF_N_IDENTIFIER) && !is_dfunc_name(c, fn) &&
            !pkf_alias_find(c, fn) && pki_builtin_lookup(pkf_text(c, fn)) < 0 &&
            !ts_node_is_null(def = pkf_plain_top_def(c, fn)))
          implicit_function(c, def, todo);
      }
      pkf_nodes kids = pkf_named_children(c, n);
      for (uint32_t k = 0; k < kids.n; k++)
        pki_vec_push(c->m->arena, &stack, box_node(c, kids.v[k]));
    }
  }
}

void pkf_collect(pkf_ctx *c, TSNode root) {
  pkf_nodes top = pkf_children(c, root);
  c->root = root;
  for (uint32_t i = 0; i < top.n; i++) {
    if (pkf_type_is(c, top.v[i], PKF_N_IMPORT_STATEMENT))
      import_stmt(c, top.v[i]);
    else if (pkf_type_is(c, top.v[i], PKF_N_IMPORT_FROM_STATEMENT))
      import_from(c, top.v[i]);
  }
  pkf_constants_collect(c, root);
  uint32_t n;
  pk_def *defs = pk_definitions(c, root, &n);
  for (uint32_t i = 0; i < n; i++)
    if (is_classtype_def(c, &defs[i]))
      classtype_declare(c, pkf_field(c, defs[i].dd, PKF_F_DEFINITION));
  pendings todo = {0};
  for (uint32_t i = 0; i < n; i++)
    if (is_classtype_def(c, &defs[i]))
      top_def(c, &defs[i], &todo);
  pkf_classtype_cycles(c);
  for (uint32_t i = 0; i < n; i++)
    if (!is_classtype_def(c, &defs[i]))
      top_def(c, &defs[i], &todo);
  implicit_functions(c, &todo);
  for (int i = 0; i < todo.n; i++)
    lower_func(c, &todo.v[i]);
  pkf_host_lambdas(c, root);
  pkf_host_chains(c, root);
  pkf_host_calls(c, root);
}
