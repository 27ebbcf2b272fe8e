/*
 * lower_kexpr.c - kernel-only expressions lowered to PKI_E_INTRINSIC:
 * TeamMember methods, scratch views, atomics (index lists flattened), random
 * pools/states, subviews (A[i, :], A[a:b], pk.subview) and typing.List literals.
 */
#include "fe.h"

#include <stdio.h>
#include <stdlib.h>

/* An intrinsic expression node with the given args (copied). */
static pki_expr *intrinsic_node(pkf_ctx *c, pki_intrinsic id, pki_span sp, pki_expr **args, int n) {
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_INTRINSIC, sp, n);
  e->intrinsic = id;
  for (int i = 0; i < n; i++)
    e->args[i] = args[i];
  return e;
}

static bool fail(pki_expr **out) {
  *out = NULL;
  return true;
}

static bool arity(pkf_ctx *c, TSNode call, const char *name, int lo, int hi, int got) {
  if (got >= lo && got <= hi)
    return true;
  if (lo == hi)
    pki_error(c->d, pkf_span(call), "arity",
              "wrong number of arguments to '%s': expected %d, got %d", name, lo, got);
  else
    pki_error(c->d, pkf_span(call), "arity",
              "wrong number of arguments to '%s': expected %d to %d, got %d", name, lo, hi, got);
  return false;
}

/* Positional arguments of call (keywords reported). */
static bool positional(pkf_ctx *c, TSNode call, pkf_nodes *out) {
  *out = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  for (uint32_t i = 0; i < out->n; i++)
    if (!pkf_type_is(c, out->v[i], PKF_N_IDENTIFIER) && ts_node_is_named(out->v[i]) &&
        (pkf_type_is(c, out->v[i], PKF_N_KEYWORD_ARGUMENT) ||
         pkf_type_is(c, out->v[i], PKF_N_LIST_SPLAT) ||
         pkf_type_is(c, out->v[i], PKF_N_DICTIONARY_SPLAT))) {
      pki_error(c->d, pkf_span(out->v[i]), "unsupported-expression",
                "pass the arguments of this call by position");
      return false;
    }
  return true;
}

static pki_type var_type(const pki_expr *e) {
  return e && e->kind == PKI_E_VAR ? e->var->type : pki_void_type;
}

/* ------------------------------------------------------ subviews, slices */

static pki_expr *slice_node(pkf_ctx *c, TSNode sl) {
  pkf_nodes all = pkf_all_children(c, sl);
  TSNode part[3];
  memset(part, 0, sizeof part);
  int colons = 0;
  for (uint32_t i = 0; i < all.n; i++) {
    if (!ts_node_is_named(all.v[i])) {
      if (pkf_is(c, all.v[i], ":"))
        colons++;
      continue;
    }
    if (colons < 3)
      part[colons] = all.v[i];
  }
  if (colons > 1 && !ts_node_is_null(part[2])) {
    pki_error(c->d, pkf_span(sl), "unsupported-expression",
              "slices with a step are not supported for subviews; use begin:end");
    return NULL;
  }
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_SLICE, pkf_span(sl), 2);
  bool ok = true;
  if (!ts_node_is_null(part[0]))
    ok &= (e->args[0] = pkf_expr(c, part[0])) != NULL;
  if (!ts_node_is_null(part[1]))
    ok &= (e->args[1] = pkf_expr(c, part[1])) != NULL;
  e->ival = !e->args[0] && !e->args[1];
  return ok ? e : NULL;
}

/* slice(None) / slice(a, b) inside pk.subview. */
static bool slice_call(pkf_ctx *c, TSNode n, pki_expr **out) {
  if (!pkf_type_is(c, n, PKF_N_CALL) || !pkf_is(c, pkf_field(c, n, PKF_F_FUNCTION), "slice"))
    return false;
  pkf_nodes a = pkf_children(c, pkf_field(c, n, PKF_F_ARGUMENTS));
  if (!arity(c, n, "slice", 1, 2, (int)a.n))
    return fail(out);
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_SLICE, pkf_span(n), 2);
  bool ok = true;
  if (a.n == 1 && pkf_type_is(c, a.v[0], PKF_N_NONE)) {
    e->ival = 1;
  } else if (a.n == 1) {
    ok = (e->args[1] = pkf_expr(c, a.v[0])) != NULL;
  } else {
    if (!pkf_type_is(c, a.v[0], PKF_N_NONE))
      ok &= (e->args[0] = pkf_expr(c, a.v[0])) != NULL;
    if (!pkf_type_is(c, a.v[1], PKF_N_NONE))
      ok &= (e->args[1] = pkf_expr(c, a.v[1])) != NULL;
    e->ival = !e->args[0] && !e->args[1];
  }
  *out = ok ? e : NULL;
  return true;
}

pki_expr *pkf_subview(pkf_ctx *c, TSNode n, pki_expr *b, const TSNode *ix, int nix) {
  pki_type t = var_type(b);
  if (b->kind != PKI_E_VAR || (t.kind != PKI_VOID && t.kind != PKI_VIEW)) {
    pki_error(c->d, pkf_span(n), "not-a-view", "only a View can be sliced into a subview");
    return NULL;
  }
  if (t.kind == PKI_VIEW && nix > t.rank) {
    pki_error(c->d, pkf_span(n), "rank-mismatch",
              "subview of '%s' has %d indices but the View has rank %d; give at most one "
              "index or slice per dimension", b->var->name, nix, t.rank);
    return NULL;
  }
  pki_expr *e =
      pki_new_expr_n(c->m, PKI_E_INTRINSIC, pkf_span(n), 1 + (t.rank > nix ? t.rank : nix));
  e->intrinsic = PKI_INTRINSIC_SUBVIEW;
  e->args[0] = b;
  int slices = 0;
  bool ok = true;
  for (int i = 0; i < nix; i++) {
    pki_expr *a = NULL;
    if (pkf_type_is(c, ix[i], PKF_N_SLICE))
      a = slice_node(c, ix[i]);
    else if (!slice_call(c, ix[i], &a))
      a = pkf_expr(c, ix[i]);
    ok &= a != NULL;
    slices += a && a->kind == PKI_E_SLICE;
    e->args[i + 1] = a;
  }
  for (int i = nix; i < t.rank; i++) { /* trailing dimensions: ':' */
    e->args[i + 1] = pki_new_expr_n(c->m, PKI_E_SLICE, pkf_span(n), 2);
    e->args[i + 1]->ival = 1;
    slices++;
  }
  if (!ok)
    return NULL;
  if (t.kind == PKI_VIEW) {
    e->type = pki_view(t.elem, slices, PKI_LAYOUT_STRIDE);
    e->type.traits = t.traits;
    e->type.space = t.space;
  }
  return e;
}

static pki_expr *subview_call(pkf_ctx *c, TSNode call, const pkf_nodes *a) {
  if (!arity(c, call, "pk.subview", 2, 9, (int)a->n))
    return NULL;
  pki_expr *b = pkf_expr(c, a->v[0]);
  if (!b)
    return NULL;
  return pkf_subview(c, call, b, a->v + 1, (int)a->n - 1);
}

/* ------------------------------------------------------------- atomics */

static pki_expr *atomic_call(pkf_ctx *c, TSNode call, const char *name, int id,
                             const pkf_nodes *a) {
  int nval = id == PKI_INTRINSIC_ATOMIC_INCREMENT || id == PKI_INTRINSIC_ATOMIC_DECREMENT ? 0
             : id == PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE ? 2 : 1;
  if (!arity(c, call, name, 2 + nval, 2 + nval, (int)a->n))
    return NULL;
  pki_expr *v = pkf_expr(c, a->v[0]);
  if (!v)
    return NULL;
  pki_type t = var_type(v);
  if (v->kind != PKI_E_VAR || (t.kind != PKI_VOID && t.kind != PKI_VIEW)) {
    pki_error(c->d, pkf_span(a->v[0]), "not-a-view",
              "the first argument of %s must be a View, not '%s'", name, pkf_text(c, a->v[0]));
    return NULL;
  }
  TSNode lst = a->v[1];
  if (!pkf_type_is(c, lst, PKF_N_LIST)) {
    pki_error(c->d, pkf_span(lst), "bad-atomic",
              "the second argument of %s must be a list literal of indices, e.g. [i] or [i, j]",
              name);
    return NULL;
  }
  pkf_nodes ix = pkf_children(c, lst);
  if (ix.n == 0 || ix.n > 8 || (t.kind == PKI_VIEW && (int)ix.n != t.rank)) {
    pki_error(c->d, pkf_span(lst), "rank-mismatch",
              "%s on View '%s' of rank %d needs %d index%s in the list, got %u", name,
              pkf_text(c, a->v[0]), t.rank, t.rank, t.rank == 1 ? "" : "es", ix.n);
    return NULL;
  }
  int n = 1 + (int)ix.n + nval;
  pki_expr **args = pki_alloc(c->m->arena, sizeof *args * (size_t)n);
  args[0] = v;
  bool ok = true;
  for (uint32_t i = 0; i < ix.n; i++)
    ok &= (args[1 + i] = pkf_expr(c, ix.v[i])) != NULL;
  for (int i = 0; i < nval; i++)
    ok &= (args[1 + (int)ix.n + i] = pkf_expr(c, a->v[2 + i])) != NULL;
  return ok ? intrinsic_node(c, (pki_intrinsic)id, pkf_span(call), args, n) : NULL;
}

/* --------------------------------------------------------- scratch views */

static pki_expr *scratch_view(pkf_ctx *c, TSNode call, int rank, const pkf_nodes *a) {
  char name[32];
  snprintf(name, sizeof name, "pk.ScratchView%dD", rank);
  bool one = a->n == 1; /* PyKokkos' one-argument form: extents of 1 (the policy still sets the size) */
  if (a->n == 0 || (!one && !arity(c, call, name, 1 + rank, 1 + rank, (int)a->n))) {
    if (a->n == 0)
      arity(c, call, name, 1, 1 + rank, 0);
    return NULL;
  }
  pki_expr *s = pkf_expr(c, a->v[0]);
  if (!s)
    return NULL;
  if (s->kind != PKI_E_INTRINSIC || (s->intrinsic != PKI_INTRINSIC_TEAM_SCRATCH &&
                                     s->intrinsic != PKI_INTRINSIC_THREAD_SCRATCH)) {
    pki_error(c->d, pkf_span(a->v[0]), "bad-scratch",
              "the first argument of %s must be m.team_scratch(level) or "
              "m.thread_scratch(level)", name);
    return NULL;
  }
  pki_expr **args = pki_alloc(c->m->arena, sizeof *args * (1 + rank));
  args[0] = s;
  bool ok = true;
  for (int i = 1; i <= rank; i++) {
    if (one) {
      args[i] = pki_new_expr(c->m, PKI_E_INT, pkf_span(call));
      args[i]->ival = 1;
    } else {
      ok &= (args[i] = pkf_expr(c, a->v[i])) != NULL;
    }
  }
  if (!ok)
    return NULL;
  pki_expr *e = intrinsic_node(c, PKI_INTRINSIC_SCRATCH_VIEW, pkf_span(call), args, 1 + rank);
  e->type = pki_view(PKI_VOID, rank, PKI_LAYOUT_DEFAULT);
  e->type.space = PKI_SPACE_SCRATCH;
  return e;
}

/* ------------------------------------------------------------ pk.NAME(...) */

static const char *const statement_only[] = {
    "parallel_for", "parallel_reduce", "parallel_scan", "single", "TeamThreadRange",
    "ThreadVectorRange", "TeamVectorRange", "TeamThreadMDRange", "PerTeam", "PerThread"};

bool pkf_kernel_pk_call(pkf_ctx *c, const pkf_method *mc, pki_expr **out) {
  TSNode call = mc->call, fn = mc->fn;
  const char *an = mc->name;
  pkf_nodes a;
  if (c->host) { /* @pk.main: host subviews (ExaMiniMD's binning), as A[a:b, :] */
    if (strcmp(an, "subview"))
      return false;
    if (!positional(c, call, &a))
      return fail(out);
    *out = subview_call(c, call, &a);
    return true;
  }
  for (size_t i = 0; i < sizeof statement_only / sizeof statement_only[0]; i++)
    if (!strcmp(an, statement_only[i])) {
      pki_error(c->d, pkf_span(call), "bad-nested-pattern",
                "pk.%s can only be used as a statement of a team workunit: "
                "pk.parallel_for(pk.TeamThreadRange(m, n), fn), 'x = pk.parallel_reduce(...)' "
                "or pk.single(pk.PerTeam(m), fn)", an);
      return fail(out);
    }
  if (!strcmp(an, "MaxLoc") || !strcmp(an, "MinLoc")) {
    pki_error(c->d, pkf_span(call), "unsupported-reducer", "pk.%s reducers are not supported", an);
    return fail(out);
  }
  bool subview = !strcmp(an, "subview");
  int id = pki_intrinsic_lookup(pki_sprintf(c->m->arena, "pk.%s", an));
  if (id < 0 && !strncmp(an, "atomic_", 7) && strncmp(an, "atomic_fetch_", 13)) {
    /* pk.atomic_max(v, [i], x) ... (PyKokkos): the fetch form, its old value
     * unused; as a statement only, since PyKokkos' returns nothing */
    id = pki_intrinsic_lookup(pki_sprintf(c->m->arena, "pk.atomic_fetch_%s", an + 7));
    TSNode parent = ts_node_parent(call);
    if (id >= 0 && !pkf_type_is(c, parent, PKF_N_EXPRESSION_STATEMENT)) {
      pki_error(c->d, pkf_span(call), "unsupported-function",
                "pk.%s(...) returns nothing (PyKokkos); call it on a line of its own, or use "
                "pk.atomic_fetch_%s(...) for the value before the update", an, an + 7);
      return fail(out);
    }
  }
  bool atomic = id >= 0 && !strncmp(an, "atomic_", 7);
  bool search = id == PKI_INTRINSIC_LOWER_BOUND || id == PKI_INTRINSIC_UPPER_BOUND ||
                id == PKI_INTRINSIC_TEAM_INCLUSIVE_SCAN;
  int srank = !strncmp(an, "ScratchView", 11) && an[11] >= '1' && an[11] <= '3' &&
                      !strcmp(an + 12, "D") ? an[11] - '0' : 0;
  if (!subview && !atomic && !srank && !search)
    return false;
  if (!positional(c, call, &a))
    return fail(out);
  if (search) { /* pk.lower_bound(view, n, value), pk.inclusive_scan(m, view) */
    int n = pki_intrinsics[id].max_args;
    if (!arity(c, call, pkf_text(c, fn), n, n, (int)a.n))
      return fail(out);
    pki_expr **args = pki_alloc(c->m->arena, sizeof *args * (size_t)n);
    bool ok = true;
    for (int i = 0; i < n; i++)
      ok &= (args[i] = pkf_expr(c, a.v[i])) != NULL;
    *out = ok ? intrinsic_node(c, (pki_intrinsic)id, pkf_span(call), args, n) : NULL;
    return true;
  }
  if (subview)
    *out = subview_call(c, call, &a);
  else if (atomic)
    *out = atomic_call(c, call, pkf_text(c, fn), id, &a);
  else
    *out = scratch_view(c, call, srank, &a);
  return true;
}

/* ------------------------------------------------------------ obj.meth(...) */

typedef enum { ON_MEMBER, ON_POOL, ON_STATE } recv_kind;

static const struct {
  const char *name;
  pki_intrinsic id;
  recv_kind on;
} methods[] = {
    {"league_rank", PKI_INTRINSIC_LEAGUE_RANK, ON_MEMBER},
    {"team_rank", PKI_INTRINSIC_TEAM_RANK, ON_MEMBER},
    {"league_size", PKI_INTRINSIC_LEAGUE_SIZE, ON_MEMBER},
    {"team_size", PKI_INTRINSIC_TEAM_SIZE, ON_MEMBER},
    {"team_barrier", PKI_INTRINSIC_TEAM_BARRIER, ON_MEMBER},
    {"team_scratch", PKI_INTRINSIC_TEAM_SCRATCH, ON_MEMBER},
    {"thread_scratch", PKI_INTRINSIC_THREAD_SCRATCH, ON_MEMBER},
    {"get_state", PKI_INTRINSIC_POOL_GET_STATE, ON_POOL},
    {"free_state", PKI_INTRINSIC_POOL_FREE_STATE, ON_POOL},
    {"drand", PKI_INTRINSIC_RAND_DRAND, ON_STATE},
    {"frand", PKI_INTRINSIC_RAND_FRAND, ON_STATE},
    {"urand", PKI_INTRINSIC_RAND_URAND, ON_STATE},
    {"urand64", PKI_INTRINSIC_RAND_URAND64, ON_STATE},
    {"rand", PKI_INTRINSIC_RAND_RAND, ON_STATE},
    {"rand64", PKI_INTRINSIC_RAND_RAND64, ON_STATE},
    {"normal", PKI_INTRINSIC_RAND_NORMAL, ON_STATE}};

static const pki_kind recv_kinds[] = {PKI_TEAM_MEMBER, PKI_POOL, PKI_RAND_STATE};
static const char *const recv_names[] = {
    "a pk.TeamMember: it is only available in team workunits (work index 'm: pk.TeamMember')",
    "a random pool (pk.Random_XorShift64_Pool)",
    "a random state from pool.get_state()"};

bool pkf_kernel_method(pkf_ctx *c, const pkf_method *mc, pki_expr **out) {
  TSNode call = mc->call, fn = mc->fn, obj = mc->obj;
  int k = -1;
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (!strcmp(mc->name, methods[i].name))
      k = (int)i;
  if (k < 0)
    return false;
  pki_expr *r = pkf_expr(c, obj);
  if (!r)
    return fail(out);
  pki_type t = var_type(r);
  recv_kind on = methods[k].on;
  if (r->kind != PKI_E_VAR || (t.kind != PKI_VOID && t.kind != recv_kinds[on])) {
    pki_error(c->d, pkf_span(fn), "bad-receiver", "'%s()' needs %s; '%s' is %s",
              pkf_text(c, fn), recv_names[on], pkf_text(c, obj),
              r->kind == PKI_E_VAR ? pki_type_str(c->m->arena, t) : "not a variable");
    return fail(out);
  }
  pkf_nodes a;
  if (!positional(c, call, &a))
    return fail(out);
  const pki_builtin_info *bi = &pki_intrinsics[methods[k].id];
  if (!arity(c, call, pkf_text(c, fn), bi->min_args - 1, bi->max_args - 1, (int)a.n))
    return fail(out);
  pki_expr **args = pki_alloc(c->m->arena, sizeof *args * (a.n + 1));
  args[0] = r;
  bool ok = true;
  for (uint32_t i = 0; i < a.n; i++)
    ok &= (args[i + 1] = pkf_expr(c, a.v[i])) != NULL;
  if (!ok)
    return fail(out);
  pki_expr *e = intrinsic_node(c, methods[k].id, pkf_span(call), args, (int)a.n + 1);
  if (methods[k].id == PKI_INTRINSIC_POOL_GET_STATE && t.kind == PKI_POOL) {
    e->type = pki_void_type;
    e->type.kind = PKI_RAND_STATE;
    e->type.rank = t.rank;
  }
  *out = e;
  return true;
}

/* ------------------------------------------------------------ list literals */

/* [[a, b], [c, d]]: a List[List[T]] literal, flattened row by row; the
 * type's rank is the number of columns. NULL after an error. */
pki_expr *pkf_matrix_literal(pkf_ctx *c, TSNode list, pki_kind elem) {
  pkf_nodes rows = pkf_type_is(c, list, PKF_N_LIST) ? pkf_children(c, list) : (pkf_nodes){0};
  uint32_t cols = rows.n ? pkf_named_child_count(c, rows.v[0]) : 0;
  bool ok = rows.n > 0 && cols > 0 && rows.n * cols <= 4096;
  for (uint32_t r = 0; ok && r < rows.n; r++)
    ok = pkf_type_is(c, rows.v[r], PKF_N_LIST) && pkf_named_child_count(c, rows.v[r]) == cols;
  if (!ok) {
    pki_error(c->d, pkf_span(list), "bad-list",
              "a List[List[T]] local needs a literal of equal-length rows, e.g. "
              "[[1.0, 0.0], [0.0, 1.0]]");
    return NULL;
  }
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_LIST, pkf_span(list), (int)(rows.n * cols));
  for (uint32_t r = 0; r < rows.n; r++) {
    pkf_nodes el = pkf_children(c, rows.v[r]);
    for (uint32_t k = 0; k < cols; k++)
      ok &= (e->args[r * cols + k] = pkf_expr(c, el.v[k])) != NULL;
  }
  e->type = pki_array_type(elem, (int)(rows.n * cols));
  e->type.rank = (int)cols;
  return ok ? e : NULL;
}

pki_expr *pkf_list_literal(pkf_ctx *c, TSNode list, pki_kind elem) {
  TSNode lit = list;
  int64_t times = 1;
  if (pkf_type_is(c, list, PKF_N_BINARY_OPERATOR) &&
      pkf_is(c, pkf_field(c, list, PKF_F_OPERATOR), "*") &&
      pkf_type_is(c, pkf_field(c, list, PKF_F_LEFT), PKF_N_LIST)) {
    /* [0.0] * 3, [0.0] * K (a module constant), [0.0] * (2 * K) */
    TSNode count = pkf_field(c, list, PKF_F_RIGHT);
    const pki_expr *k = pkf_type_is(c, count, PKF_N_INTEGER) ? NULL : pkf_expr(c, count);
    lit = pkf_field(c, list, PKF_F_LEFT);
    if (pkf_type_is(c, count, PKF_N_INTEGER))
      times = strtoll(pkf_text(c, count), NULL, 10);
    else if (!k || !pki_const_int(k, &times))
      times = 0;
  }
  pkf_nodes el = pkf_type_is(c, lit, PKF_N_LIST) ? pkf_children(c, lit) : (pkf_nodes){0};
  if (!pkf_type_is(c, lit, PKF_N_LIST) || el.n == 0 || times < 1 || times * el.n > 4096) {
    pki_error(c->d, pkf_span(list), "bad-list",
              "a typing.List local needs a list literal of fixed, non-zero length, e.g. "
              "[0.0, 0.0, 0.0] or [0.0] * 3 (a count known at compile time: a literal or "
              "a module-level constant)");
    return NULL;
  }
  int n = (int)(el.n * times);
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_LIST, pkf_span(list), n);
  bool ok = true;
  for (uint32_t i = 0; i < el.n; i++)
    ok &= (e->args[i] = pkf_expr(c, el.v[i])) != NULL;
  for (int i = (int)el.n; ok && i < n; i++)
    e->args[i] = e->args[i % el.n];
  e->type = pki_array_type(elem, n);
  return ok ? e : NULL;
}
