/*
 * classtype.c - @pk.classtype values in annotated code (dialect item 7):
 * field types from __init__, annotations naming a classtype (also quoted),
 * construction (PKI_E_CONSTRUCT), field access (PKI_E_FIELD), method calls
 * (PKI_E_CALL, args[0] = receiver); plus the other attribute hooks of the
 * entities layer: self.x in classtypes/workloads, pk.Timer/pk.fence and
 * timer methods (host only), calls of @pk.callback methods (rejected).
 */
#include "ents.h"

/* ---------------------------------------------------------------- fields */

static pki_func *ctor_of(pki_entity *e) {
  for (int i = 0; i < e->nfuncs; i++)
    if (e->funcs[i]->is_ctor)
      return e->funcs[i];
  return NULL;
}

/* Type of an unannotated field's value: a ctor parameter, a literal or a
 * classtype construction; false if it cannot be fixed. */
static bool value_type(pkf_ctx *c, pki_func *ctor, TSNode v, pki_type *out) {
  if (pkf_type_is(c, v, PKF_N_INTEGER)) *out = pki_int_type;
  else if (pkf_type_is(c, v, PKF_N_FLOAT)) *out = pki_float_type;
  else if (pkf_type_is(c, v, PKF_N_TRUE) || pkf_type_is(c, v, PKF_N_FALSE)) *out = pki_bool_type;
  else if (pkf_type_is(c, v, PKF_N_CALL) && pkf_classtype_find(c, pkf_field(c, v, PKF_F_FUNCTION)))
    *out = pki_class_type(pkf_classtype_find(c, pkf_field(c, v, PKF_F_FUNCTION)));
  else if (pkf_type_is(c, v, PKF_N_IDENTIFIER) && ctor) {
    for (int i = 0; i < ctor->nparams; i++)
      if (pkf_is(c, v, ctor->params[i]->name) && ctor->params[i]->annotated) {
        *out = ctor->params[i]->type;
        return true;
      }
    return false;
  } else
    return false;
  return true;
}

/* A fixed-size List field, self.v: List[float] = [vx, vy, vz]: its length
 * from the list literal (*t gets it); false (reported) if it has none. */
static bool array_field(pkf_ctx *c, const pki_entity *e, const char *nm, TSNode left,
                        TSNode right, pki_type *t) {
  if (t->rank != 0) {
    pki_error(c->d, pkf_span(left), "classtype-field",
              "field 'self.%s' of classtype '%s' is a List of Lists; classtype fields may be "
              "Lists of scalars only (flatten it: self.%s: List[float] = [a, b, c, d])",
              nm, e->name, nm);
    return false;
  }
  uint32_t n = ts_node_is_null(right) || !pkf_type_is(c, right, PKF_N_LIST)
                   ? 0 : ts_node_named_child_count(right);
  if (n == 0 || n > PKI_MAX_ARRAY_FIELD) {
    pki_error(c->d, pkf_span(ts_node_is_null(right) ? left : right), "classtype-field",
              "List field 'self.%s' of classtype '%s' needs a list literal of 1 to %d "
              "elements, which fixes its length (self.%s: List[float] = [x, y, z])",
              nm, e->name, PKI_MAX_ARRAY_FIELD, nm);
    return false;
  }
  t->length = (int)n;
  return true;
}

void pkf_classtype_fields(pkf_ctx *c, pki_entity *e, TSNode init) {
  pki_func *ctor = ctor_of(e);
  pkf_nodes st = pkf_children(c, pkf_field(c, init, PKF_F_BODY));
  for (uint32_t i = 0; i < st.n; i++) {
    TSNode a = pkf_named_child(c, st.v[i], 0);
    if (!pkf_type_is(c, st.v[i], PKF_N_EXPRESSION_STATEMENT) ||
        !pkf_type_is(c, a, PKF_N_ASSIGNMENT))
      continue;
    TSNode left = pkf_field(c, a, PKF_F_LEFT), ann = pkf_field(c, a, PKF_F_TYPE),
           right = pkf_field(c, a, PKF_F_RIGHT);
    if (!pkf_type_is(c, left, PKF_N_ATTRIBUTE) ||
        !pkf_is(c, pkf_field(c, left, PKF_F_OBJECT), "self"))
      continue;
    const char *nm = pkf_text(c, pkf_field(c, left, PKF_F_ATTRIBUTE));
    if (pki_entity_member(e, nm))
      continue; /* a later assignment to a declared field */
    if (!strcmp(nm, e->name)) { /* C++: a member may not share its class's name */
      pki_error(c->d, pkf_span(left), "classtype-field",
                "field 'self.%s' has the name of its classtype; rename the field", nm);
      continue;
    }
    pki_type t = pki_void_type;
    if (!ts_node_is_null(ann)) {
      if (!pkf_type(c, ann, false, &t))
        continue;
    } else if (ts_node_is_null(right) || !value_type(c, ctor, right, &t)) {
      pki_error(c->d, pkf_span(left), "classtype-field",
                "the type of field 'self.%s' of classtype '%s' cannot be fixed; annotate "
                "it, e.g. 'self.%s: float = ...'", nm, e->name, nm);
      continue;
    }
    if (t.kind == PKI_ARRAY && !array_field(c, e, nm, left, right, &t))
      continue;
    if (!pki_is_numeric(t.kind) && t.kind != PKI_CLASS && t.kind != PKI_ARRAY) {
      pki_error(c->d, pkf_span(ts_node_is_null(ann) ? left : ann), "classtype-field",
                "field 'self.%s' of classtype '%s' has type %s; classtype fields must be "
                "scalars, fixed-size Lists of scalars or classtypes", nm, e->name,
                pki_type_str(c->m->arena, t));
      continue;
    }
    pki_var *v =
        pki_new_var(c->m, nm, PKI_VAR_MEMBER, t, pkf_span(pkf_field(c, left, PKF_F_ATTRIBUTE)));
    v->annotated = !ts_node_is_null(ann);
    pki_entity_add_member(c->m, e, v);
  }
}

/* Is target reachable from e through fields of classtype type? (DFS; seen[]
 * has room for every classtype) */
static bool holds(const pki_entity *e, const pki_entity *target, const pki_entity **seen,
                  int *nseen) {
  for (int i = 0; i < *nseen; i++)
    if (seen[i] == e)
      return false;
  seen[(*nseen)++] = e;
  for (int i = 0; i < e->nmembers; i++) {
    const pki_entity *d = e->members[i]->type.kind == PKI_CLASS ? e->members[i]->type.cls : NULL;
    if (d && (d == target || holds(d, target, seen, nseen)))
      return true;
  }
  return false;
}

void pkf_classtype_cycles(pkf_ctx *c) {
  struct pkf_ents *s = pkf_ents_get(c);
  if (!s->ncls)
    return;
  const pki_entity **seen = pki_alloc(c->m->arena, sizeof *seen * (size_t)s->ncls);
  for (int i = 0; i < s->ncls; i++) {
    pki_entity *e = s->classes[i];
    for (int k = 0; k < e->nmembers; k++) {
      const pki_entity *d = e->members[k]->type.kind == PKI_CLASS ? e->members[k]->type.cls : NULL;
      int nseen = 0;
      if (d && (d == e || holds(d, e, seen, &nseen))) {
        pki_error(c->d, e->members[k]->span, "classtype-field",
                  "field 'self.%s' makes classtype '%s' contain itself (a field of type "
                  "'%s'); a classtype cannot hold itself by value", e->members[k]->name,
                  e->name, d->name);
        break;
      }
    }
  }
}

/* ------------------------------------------------------------ expressions */

static bool in_entity(pkf_ctx *c, pki_entity_kind k) { return c->ent && c->ent->kind == k; }

static bool self_ok(pkf_ctx *c, TSNode obj) {
  return pkf_is(c, obj, "self") &&
         (in_entity(c, PKI_ENT_CLASSTYPE) || in_entity(c, PKI_ENT_WORKLOAD));
}

/* The static type of an expression node, without lowering it (VOID if unknown). */
static pki_type peek_type(pkf_ctx *c, TSNode n) {
  if (pkf_type_is(c, n, PKF_N_IDENTIFIER)) {
    const char *t = pkf_text(c, n);
    pki_var *v = pkf_lookup(c, t, strlen(t));
    if (!v && !strcmp(t, "self") && in_entity(c, PKI_ENT_CLASSTYPE) && c->fn && !c->fn->is_ctor)
      return pki_class_type(c->ent); /* self.sq() in a method of the classtype */
    return v ? v->type : pki_void_type;
  }
  if (pkf_type_is(c, n, PKF_N_ATTRIBUTE)) {
    TSNode obj = pkf_field(c, n, PKF_F_OBJECT);
    const char *a = pkf_text(c, pkf_field(c, n, PKF_F_ATTRIBUTE));
    pki_var *f = NULL;
    if (self_ok(c, obj))
      f = pki_entity_member(c->ent, a);
    else {
      pki_type o = peek_type(c, obj);
      if (o.kind == PKI_CLASS)
        f = pki_entity_member(o.cls, a);
    }
    return f ? f->type : pki_void_type;
  }
  if (pkf_type_is(c, n, PKF_N_CALL)) { /* V2(3.0, 4.0).norm(), mk(1.0).x: temporaries */
    TSNode fn = pkf_field(c, n, PKF_F_FUNCTION);
    pki_entity *e = pkf_type_is(c, fn, PKF_N_IDENTIFIER) ? pkf_classtype_find(c, fn) : NULL;
    const char *t = e ? pkf_text(c, fn) : NULL;
    if (e && !pkf_lookup(c, t, strlen(t)))
      return pki_class_type(e);
    const pki_func *f = NULL;
    const char *name = pkf_text(c, fn);
    if (pkf_type_is(c, fn, PKF_N_IDENTIFIER) && !pkf_lookup(c, name, strlen(name)))
      for (int i = 0; i < c->ndf; i++) /* a @pk.function's value */
        if (!strcmp(name, c->dfuncs[i]->name))
          f = c->dfuncs[i];
    if (pkf_type_is(c, fn, PKF_N_ATTRIBUTE)) { /* a classtype method's value */
      pki_type o = peek_type(c, pkf_field(c, fn, PKF_F_OBJECT));
      const char *an = pkf_text(c, pkf_field(c, fn, PKF_F_ATTRIBUTE));
      for (int i = 0; o.kind == PKI_CLASS && i < o.cls->nfuncs; i++)
        if (!o.cls->funcs[i]->is_ctor && !strcmp(o.cls->funcs[i]->name, an))
          f = o.cls->funcs[i];
    }
    if (f && f->ret.kind == PKI_CLASS)
      return f->ret;
  }
  if (pkf_type_is(c, n, PKF_N_SUBSCRIPT)) { /* p[i] of a View of classtype values */
    pki_type v = peek_type(c, pkf_field(c, n, PKF_F_VALUE));
    if (pki_is_class_view(v))
      return pki_class_type(v.cls);
  }
  return pki_void_type;
}

static bool arity(pkf_ctx *c, TSNode call, const char *what, int want, int got) {
  if (want == got)
    return true;
  pki_error(c->d, pkf_span(call), "arity", "wrong number of arguments to '%s': expected %d, got %d",
            what, want, got);
  return false;
}

bool pkf_ent_name_call(pkf_ctx *c, TSNode call, TSNode fn, pki_expr **out) {
  const char *nm = pkf_text(c, fn);
  if (pkf_lookup(c, nm, strlen(nm)))
    return false;
  pki_entity *e = pkf_classtype_find(c, fn);
  if (!e)
    return false;
  *out = NULL;
  pki_func *ctor = ctor_of(e);
  pki_expr **args = pkf_bind_args(c, call, e->name, ctor, 0);
  if (!args)
    return true;
  pki_expr *x = pki_new_expr(c->m, PKI_E_CONSTRUCT, pkf_span(call));
  x->type = pki_class_type(e);
  x->func = ctor;
  x->args = args;
  x->nargs = ctor ? ctor->nparams : 0;
  *out = x;
  return true;
}

static pki_expr *intrinsic(pkf_ctx *c, TSNode call, pki_intrinsic k, pki_expr *recv) {
  pki_expr *x = pki_new_expr_n(c->m, PKI_E_INTRINSIC, pkf_span(call), recv ? 1 : 0);
  x->intrinsic = k;
  if (recv)
    x->args[0] = recv;
  if (k == PKI_INTRINSIC_TIMER_NEW)
    x->type.kind = PKI_TIMER;
  else if (k == PKI_INTRINSIC_TIMER_SECONDS)
    x->type = pki_float_type;
  return x;
}

static bool host_only(pkf_ctx *c, TSNode call, const char *what) {
  if (c->host)
    return true;
  pki_error(c->d, pkf_span(call), "host-only",
            "%s is only available in the host code of a @pk.main method, not in kernels", what);
  return false;
}

static bool pk_method(pkf_ctx *c, TSNode call, const char *an, pki_expr **out) {
  if (pkf_binsort_new(c, call, an, out))
    return true;
  bool timer = !strcmp(an, "Timer"), fence = !strcmp(an, "fence");
  if (!timer && !fence)
    return false;
  *out = NULL;
  pkf_nodes ch = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  if (!host_only(c, call, timer ? "pk.Timer()" : "pk.fence()") ||
      !arity(c, call, timer ? "pk.Timer" : "pk.fence", 0, (int)ch.n))
    return true;
  *out = intrinsic(c, call, timer ? PKI_INTRINSIC_TIMER_NEW : PKI_INTRINSIC_FENCE, NULL);
  return true;
}

static bool callback_call(pkf_ctx *c, TSNode call, TSNode obj, const char *an) {
  if (!pkf_is(c, obj, "self") || !c->ent || !pkf_is_callback(c, c->ent, an))
    return false;
  pki_error(c->d, pkf_span(call), "callback-call",
            "a @pk.callback runs in Python; it cannot be called from a kernel or @pk.main");
  return true;
}

static bool timer_method(pkf_ctx *c, TSNode call, TSNode obj, const char *an, pki_expr **out) {
  *out = NULL;
  bool sec = !strcmp(an, "seconds");
  if (!sec && strcmp(an, "reset")) {
    pki_error(c->d, pkf_span(call), "unsupported-function",
              "pk.Timer has the methods seconds() and reset() only");
    return true;
  }
  pkf_nodes ch = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  if (!arity(c, call, an, 0, (int)ch.n))
    return true;
  pki_expr *r = pkf_expr(c, obj);
  if (r)
    *out = intrinsic(c, call, sec ? PKI_INTRINSIC_TIMER_SECONDS : PKI_INTRINSIC_TIMER_RESET, r);
  return true;
}

static bool class_method(pkf_ctx *c, TSNode call, TSNode obj, pki_entity *cls, const char *an,
                         pki_expr **out) {
  *out = NULL;
  pki_func *f = NULL;
  for (int i = 0; i < cls->nfuncs; i++)
    if (!cls->funcs[i]->is_ctor && !strcmp(cls->funcs[i]->name, an))
      f = cls->funcs[i];
  if (!f) {
    pki_error(c->d, pkf_span(call), "unknown-method",
              "classtype '%s' has no @pk.function method '%s'", cls->name, an);
    return true;
  }
  pki_expr **args = pkf_bind_args(c, call, an, f, 1);
  if (!args || !(args[0] = pkf_expr(c, obj)))
    return true;
  pki_expr *x = pki_new_expr(c->m, PKI_E_CALL, pkf_span(call));
  x->func = f;
  x->args = args;
  x->nargs = f->nparams + 1;
  x->type = f->ret;
  *out = x;
  return true;
}

/* pk.ScratchView1D..3D[T].shmem_size(n0, ...) (T: double if not given), in
 * @pk.main: the bytes of team scratch such a View needs (Kokkos' shmem_size). */
static bool scratch_shmem(pkf_ctx *c, TSNode call, TSNode obj, const char *an,
                          pki_expr **out) {
  TSNode base = obj, elem = {0};
  if (pkf_type_is(c, obj, PKF_N_SUBSCRIPT)) {
    base = pkf_field(c, obj, PKF_F_VALUE);
    elem = pkf_field(c, obj, PKF_F_SUBSCRIPT);
  }
  if (strcmp(an, "shmem_size") || !pkf_type_is(c, base, PKF_N_ATTRIBUTE) ||
      !pkf_alias_is(c, pkf_field(c, base, PKF_F_OBJECT), PKF_AL_PK))
    return false;
  const char *v = pkf_text(c, pkf_field(c, base, PKF_F_ATTRIBUTE));
  if (strncmp(v, "ScratchView", 11) || v[11] < '1' || v[11] > '3' || strcmp(v + 12, "D"))
    return false;
  *out = NULL;
  int rank = v[11] - '0';
  pkf_nodes a = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  if (!host_only(c, call, "ScratchView.shmem_size(...)") ||
      !arity(c, call, "shmem_size", rank, (int)a.n))
    return true;
  pki_type t = pki_float_type;
  if (!ts_node_is_null(elem) && !pkf_type(c, elem, true, &t))
    return true;
  pki_expr *x = pki_new_expr_n(c->m, PKI_E_INTRINSIC, pkf_span(call), (int)a.n);
  x->intrinsic = PKI_INTRINSIC_SCRATCH_SHMEM;
  x->ival = rank;
  x->type = pki_int_type;
  x->type.elem = t.kind;
  for (uint32_t i = 0; i < a.n; i++)
    if (!(x->args[i] = pkf_expr(c, a.v[i])))
      return true;
  *out = x;
  return true;
}

bool pkf_ent_method_call(pkf_ctx *c, const pkf_method *mc, pki_expr **out) {
  TSNode call = mc->call, obj = mc->obj;
  const char *an = mc->name;
  if (scratch_shmem(c, call, obj, an, out))
    return true;
  if (pkf_alias_is(c, obj, PKF_AL_PK))
    return pk_method(c, call, an, out);
  if (callback_call(c, call, obj, an)) {
    *out = NULL;
    return true;
  }
  pki_type t = peek_type(c, obj);
  if (t.kind == PKI_TIMER)
    return timer_method(c, call, obj, an, out);
  if (t.kind == PKI_BINOP || t.kind == PKI_BINSORT)
    return pkf_binsort_method(c, call, obj, t, an, out);
  if (t.kind == PKI_CLASS)
    return class_method(c, call, obj, t.cls, an, out);
  return false;
}

static pki_expr *var_expr(pkf_ctx *c, TSNode at, pki_var *v) {
  pki_expr *e = pki_new_expr(c->m, PKI_E_VAR, pkf_span(at));
  e->var = v;
  return e;
}

bool pkf_list_member_error(pkf_ctx *c, TSNode at, const char *name) {
  if (!pkf_is_python_list_member(c, c->ent, name))
    return false;
  pki_error(c->d, pkf_span(at), "list-member",
            "data member 'self.%s' is a Python list (or dict, str, ...), which stays in Python: "
            "kernels and @pk.main cannot read it; make it a View, e.g. "
            "'self.%s: pk.View1D[pk.double] = pk.View([n], pk.double)'", name, name);
  return true;
}

/* v[i].name where v is a parameter whose type is known only at the call (a
 * View of classtype values needs its annotation): reported, true. */
static bool untyped_elem_attr(pkf_ctx *c, TSNode attr, TSNode obj, const char *an) {
  if (!pkf_type_is(c, obj, PKF_N_SUBSCRIPT))
    return false;
  TSNode base = pkf_field(c, obj, PKF_F_VALUE);
  if (!pkf_type_is(c, base, PKF_N_IDENTIFIER))
    return false;
  const char *nm = pkf_text(c, base);
  pki_var *v = pkf_lookup(c, nm, strlen(nm));
  if (!v || v->kind != PKI_VAR_PARAM || v->type.kind != PKI_VOID)
    return false;
  pki_error(c->d, pkf_span(attr), "class-view",
            "'%s.%s' needs the type of parameter '%s', which is known only at the call; "
            "annotate it (%s: pk.View1D[C] for a View of @pk.classtype C values)",
            pkf_text(c, obj), an, nm, nm);
  return true;
}

bool pkf_ent_attr(pkf_ctx *c, TSNode attr, pki_expr **out) {
  TSNode obj = pkf_field(c, attr, PKF_F_OBJECT);
  const char *an = pkf_text(c, pkf_field(c, attr, PKF_F_ATTRIBUTE));
  *out = NULL;
  if (self_ok(c, obj)) {
    pki_var *v = pki_entity_member(c->ent, an);
    if (v)
      *out = var_expr(c, attr, v);
    else if (c->fn && c->fn->is_ctor)
      ; /* reported by pkf_classtype_fields */
    else if (in_entity(c, PKI_ENT_CLASSTYPE))
      pki_error(c->d, pkf_span(attr), "unknown-field", "classtype '%s' has no field 'self.%s'",
                c->ent->name, an);
    else if (!pkf_list_member_error(c, attr, an))
      pki_error(c->d, pkf_span(attr), "unknown-member",
                "workload '%s' has no data member 'self.%s'; %s", c->ent->name, an,
                pkf_member_hint(c, an));
    return true;
  }
  if (pkf_type_is(c, obj, PKF_N_IDENTIFIER)) {
    /* acc.val / acc.loc of a pk.MaxLoc/MinLoc accumulator, acc.min_val,
     * acc.max_val (and min_loc, max_loc) of a pk.MinMax(Loc) one */
    uint32_t s0 = ts_node_start_byte(obj);
    pki_var *acc = pkf_lookup(c, c->src + s0, ts_node_end_byte(obj) - s0);
    pki_func *o = acc && acc->kind == PKI_VAR_ACC ? c->fn : NULL;
    while (o && o->acc != acc && o->is_closure)
      o = o->parent;
    bool is_loc = false;
    if (o && o->acc == acc && pki_reducer_has_fields(o->reducer)) {
      if (!pki_reducer_field(o->reducer, an, &is_loc)) {
        pki_error(c->d, pkf_span(attr), "unknown-field",
                  "the accumulator '%s' has no field '%s'; it has %s", acc->name, an,
                  o->reducer == PKI_REDUCER_MINMAX      ? "min_val and max_val"
                  : o->reducer == PKI_REDUCER_MINMAXLOC ? "min_val, min_loc, max_val and max_loc"
                                                        : "val and loc");
        return true;
      }
      pki_expr *e = pki_new_expr_n(c->m, PKI_E_FIELD, pkf_span(attr), 1);
      e->args[0] = var_expr(c, obj, acc);
      e->str = pki_strdup(c->m->arena, an);
      e->type = is_loc ? pki_int_type : acc->type;
      *out = e;
      return true;
    }
  }
  if (pkf_type_is(c, obj, PKF_N_ATTRIBUTE)) { /* c.cc.a: is cc a field of c? */
    TSNode in = pkf_field(c, obj, PKF_F_ATTRIBUTE);
    pki_type it = peek_type(c, pkf_field(c, obj, PKF_F_OBJECT));
    if (it.kind == PKI_CLASS && it.cls && !pki_entity_member(it.cls, pkf_text(c, in))) {
      pki_error(c->d, pkf_span(in), "unknown-field", "classtype '%s' has no field '%s'",
                it.cls->name, pkf_text(c, in));
      return true;
    }
  }
  pki_type t = peek_type(c, obj);
  if (t.kind != PKI_CLASS)
    return untyped_elem_attr(c, attr, obj, an);
  pki_var *f = pki_entity_member(t.cls, an);
  if (!f) {
    pki_error(c->d, pkf_span(attr), "unknown-field", "classtype '%s' has no field '%s'",
              t.cls->name, an);
    return true;
  }
  pki_expr *o = pkf_expr(c, obj);
  if (!o)
    return true;
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_FIELD, pkf_span(attr), 1);
  e->args[0] = o;
  e->str = f->name;
  e->var = f;
  e->type = f->type;
  *out = e;
  return true;
}

/* left is the target of `self.x = sorter.get_bin_count()` (get_bin_offsets,
 * get_permute_vector): a copy into the member, checked by pki_check. */
static bool binsort_result(pkf_ctx *c, TSNode left) {
  TSNode a = pkf_parent(c, left);
  TSNode r = pkf_type_is(c, a, PKF_N_ASSIGNMENT) ? pkf_field(c, a, PKF_F_RIGHT) : (TSNode){0};
  if (ts_node_is_null(r) || !pkf_type_is(c, r, PKF_N_CALL))
    return false;
  TSNode fn = pkf_field(c, r, PKF_F_FUNCTION);
  if (!pkf_type_is(c, fn, PKF_N_ATTRIBUTE))
    return false;
  TSNode m = pkf_field(c, fn, PKF_F_ATTRIBUTE);
  return pkf_is(c, m, "get_bin_count") || pkf_is(c, m, "get_bin_offsets") ||
         pkf_is(c, m, "get_permute_vector");
}

pki_expr *pkf_bare_member_target(pkf_ctx *c, TSNode id, pki_var *m) {
  if (!in_entity(c, PKI_ENT_CLASSTYPE) && !c->fn->is_main) {
    pki_error(c->d, pkf_span(id), "member-write",
              "cannot assign to '%s': it is the data member self.%s, read-only in kernels; "
              "use a View member to return data, or declare a local ('%s: float = ...')",
              m->name, m->name, m->name);
    return NULL;
  }
  if (c->fn->is_main && m->type.kind == PKI_VIEW && !binsort_result(c, id)) {
    pki_error(c->d, pkf_span(id), "member-write",
              "cannot assign to View member '%s' in @pk.main; write its elements in a "
              "workunit instead", m->name);
    return NULL;
  }
  return var_expr(c, id, m);
}

bool pkf_ent_target(pkf_ctx *c, TSNode left, pki_expr **out) {
  if (!pkf_type_is(c, left, PKF_N_ATTRIBUTE))
    return false;
  TSNode obj = pkf_field(c, left, PKF_F_OBJECT);
  if (self_ok(c, obj)) {
    bool ok = in_entity(c, PKI_ENT_CLASSTYPE) || (c->fn && c->fn->is_main);
    if (!ok)
      return false; /* workload workunits: read-only members, reported by the caller */
    if (!pkf_ent_attr(c, left, out) || !*out)
      return true;
    if (c->fn->is_main && (*out)->var->type.kind == PKI_VIEW && !binsort_result(c, left)) {
      pki_error(c->d, pkf_span(left), "member-write",
                "cannot assign to View member '%s' in @pk.main; write its elements in a "
                "workunit instead", pkf_text(c, left));
      *out = NULL;
    }
    return true;
  }
  return pkf_ent_attr(c, left, out);
}
