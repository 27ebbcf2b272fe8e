/*
 * workload.c - host statements of a @pk.main method (dialect item 12):
 * dispatches pk.parallel_for/reduce/scan([label,] POLICY, self.wu | lambda)
 * -> PKI_S_DISPATCH, reduce lambdas -> closure funcs, typed declarations of
 * timers and classtype values, and `self.x: T = v` in classtype constructors.
 */
#include "ents.h"

#include <stdlib.h>

bool pkf_is_callback(pkf_ctx *c, pki_entity *e, const char *name) {
  if (!c->ents)
    return false;
  for (int i = 0; i < c->ents->ncb; i++)
    if (c->ents->cbs[i].ent == e && !strcmp(c->ents->cbs[i].name, name))
      return true;
  return false;
}

bool pkf_is_python_list_member(pkf_ctx *c, pki_entity *e, const char *name) {
  struct pkf_ents *st = pkf_ents_get(c);
  for (int i = 0; i < st->npyl; i++)
    if (st->pylists[i].ent == e && !strcmp(st->pylists[i].name, name))
      return true;
  return false;
}

static bool pk_call_named(pkf_ctx *c, TSNode n, const char *name) {
  if (!pkf_type_is(c, n, PKF_N_CALL))
    return false;
  TSNode fn = pkf_field(c, n, PKF_F_FUNCTION);
  return pkf_type_is(c, fn, PKF_N_ATTRIBUTE) &&
         pkf_alias_is(c, pkf_field(c, fn, PKF_F_OBJECT), PKF_AL_PK) &&
         pkf_is(c, pkf_field(c, fn, PKF_F_ATTRIBUTE), name);
}

static int dispatch_pattern(pkf_ctx *c, TSNode n) {
  if (pk_call_named(c, n, "parallel_for")) return PKI_PATTERN_FOR;
  if (pk_call_named(c, n, "parallel_reduce")) return PKI_PATTERN_REDUCE;
  if (pk_call_named(c, n, "parallel_scan")) return PKI_PATTERN_SCAN;
  return -1;
}

static pki_var *declare_named(pkf_ctx *c, const char *name, pki_span at, pki_type t) {
  pki_var *v = pki_new_var(c->m, name, PKI_VAR_LOCAL, t, at);
  pki_func_add_local(c->m, c->fn, v);
  pkf_scope_bind(c, v);
  return v;
}

static pki_var *declare(pkf_ctx *c, TSNode name, pki_type t, bool annotated) {
  pki_var *v = declare_named(c, pkf_text(c, name), pkf_span(name), t);
  v->annotated = annotated;
  return v;
}

/* ---------------------------------------------------------------- policies */

static pki_expr *list_expr(pkf_ctx *c, TSNode n) {
  if (!pkf_type_is(c, n, PKF_N_LIST)) {
    pki_error(c->d, pkf_span(n), "bad-policy",
              "MDRangePolicy takes lists of bounds, e.g. pk.MDRangePolicy([0, 0], [n, m])");
    return NULL;
  }
  pkf_nodes ch = pkf_children(c, n);
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_LIST, pkf_span(n), (int)ch.n);
  for (uint32_t i = 0; i < ch.n; i++)
    if (!(e->args[i] = pkf_expr(c, ch.v[i])))
      return NULL;
  return e;
}

static bool is_space_arg(pkf_ctx *c, TSNode n) {
  return pkf_type_is(c, n, PKF_N_ATTRIBUTE) && strstr(pkf_text(c, n), "ExecutionSpace") != NULL;
}

static bool is_auto(pkf_ctx *c, TSNode n) {
  return pkf_is(c, n, "\"auto\"") || pkf_is(c, n, "'auto'") ||
         (pkf_type_is(c, n, PKF_N_ATTRIBUTE) &&
          pkf_alias_is(c, pkf_field(c, n, PKF_F_OBJECT), PKF_AL_PK) &&
          pkf_is(c, pkf_field(c, n, PKF_F_ATTRIBUTE), "AUTO"));
}

static bool is_policy_call(pkf_ctx *c, TSNode p) {
  return pk_call_named(c, p, "RangePolicy") || pk_call_named(c, p, "MDRangePolicy") ||
         pk_call_named(c, p, "TeamPolicy");
}

/* The policy under `P.set_scratch_size(...)...` (p itself without them). */
static TSNode scratch_chain_base(pkf_ctx *c, TSNode p) {
  while (pkf_type_is(c, p, PKF_N_CALL)) {
    TSNode fn = pkf_field(c, p, PKF_F_FUNCTION);
    if (!pkf_type_is(c, fn, PKF_N_ATTRIBUTE) ||
        !pkf_is(c, pkf_field(c, fn, PKF_F_ATTRIBUTE), "set_scratch_size"))
      break;
    p = pkf_field(c, fn, PKF_F_OBJECT);
  }
  return p;
}

/* `name = pk.XPolicy(...)[.set_scratch_size(...)]` in main: remembered,
 * lowered where it is dispatched. */
static bool policy_alias(pkf_ctx *c, TSNode a) {
  if (!c->host)
    return false;
  TSNode left = pkf_field(c, a, PKF_F_LEFT), right = pkf_field(c, a, PKF_F_RIGHT);
  if (!pkf_type_is(c, left, PKF_N_IDENTIFIER) ||
      !is_policy_call(c, scratch_chain_base(c, right)))
    return false;
  struct pkf_ents *st = pkf_ents_get(c);
  for (int i = 0; i < st->npol; i++)
    if (st->pols[i].fn == c->fn && pkf_is(c, left, st->pols[i].name)) {
      pki_error(c->d, pkf_span(left), "bad-policy",
                "policy '%s' is bound twice; give each policy its own name", st->pols[i].name);
      return true;
    }
  st->pols = pki_grow(c->m->arena, st->pols, st->npol, &st->cappol, sizeof *st->pols);
  st->pols[st->npol++] =
      (struct pkf_policy_alias){.name = pkf_text(c, left), .node = right, .fn = c->fn};
  return true;
}

/* `p.set_scratch_size(...)` as a statement of main, p a policy alias:
 * remembered with p, applied at the dispatches of p after it. */
static bool policy_sizes_stmt(pkf_ctx *c, TSNode x) {
  if (!c->host || !pkf_type_is(c, x, PKF_N_CALL))
    return false;
  TSNode fn = pkf_field(c, x, PKF_F_FUNCTION);
  if (!pkf_type_is(c, fn, PKF_N_ATTRIBUTE) ||
      !pkf_is(c, pkf_field(c, fn, PKF_F_ATTRIBUTE), "set_scratch_size"))
    return false;
  TSNode base = scratch_chain_base(c, x);
  struct pkf_ents *st = pkf_ents_get(c);
  for (int i = 0; pkf_type_is(c, base, PKF_N_IDENTIFIER) && i < st->npol; i++) {
    struct pkf_policy_alias *a = &st->pols[i];
    if (a->fn != c->fn || !pkf_is(c, base, a->name))
      continue;
    a->sizes = pki_grow(c->m->arena, a->sizes, a->nsizes, &a->capsizes, sizeof *a->sizes);
    a->sizes[a->nsizes++] = x;
    return true;
  }
  return false;
}

/* POLICY.set_scratch_size(level, pk.PerTeam(x)[, pk.PerThread(y)]) (chains
 * too): fills s->scratch and returns POLICY; p itself if it is not one. */
static TSNode scratch_sizes(pkf_ctx *c, TSNode p, pki_stmt *s, bool *ok) {
  while (pkf_type_is(c, p, PKF_N_CALL)) {
    TSNode fn = pkf_field(c, p, PKF_F_FUNCTION);
    if (!pkf_type_is(c, fn, PKF_N_ATTRIBUTE) ||
        !pkf_is(c, pkf_field(c, fn, PKF_F_ATTRIBUTE), "set_scratch_size"))
      break;
    pkf_nodes a = pkf_children(c, pkf_field(c, p, PKF_F_ARGUMENTS));
    int level = a.n ? (int)strtol(pkf_text(c, a.v[0]), NULL, 10) : -1;
    if (a.n < 2 || a.n > 3 || !pkf_type_is(c, a.v[0], PKF_N_INTEGER) || level < 0 || level > 1) {
      pki_error(c->d, pkf_span(p), "bad-policy",
                "set_scratch_size takes (level 0 or 1, pk.PerTeam(bytes)[, pk.PerThread(bytes)])");
      *ok = false;
      return p;
    }
    for (uint32_t i = 1; i < a.n; i++) {
      bool team = pk_call_named(c, a.v[i], "PerTeam"),
           thread = pk_call_named(c, a.v[i], "PerThread");
      pkf_nodes b = pkf_children(c, pkf_field(c, a.v[i], PKF_F_ARGUMENTS));
      if ((!team && !thread) || b.n != 1) {
        pki_error(c->d, pkf_span(a.v[i]), "bad-policy",
                  "scratch sizes are given as pk.PerTeam(bytes) or pk.PerThread(bytes)");
        *ok = false;
        return p;
      }
      if (!(s->scratch[level][thread ? 1 : 0] = pkf_expr(c, b.v[0])))
        *ok = false;
    }
    p = pkf_field(c, fn, PKF_F_OBJECT);
  }
  return p;
}

/* Fills s->range / args from the policy node; false after an error. */
static bool policy(pkf_ctx *c, TSNode p, pki_stmt *s) {
  bool sizes_ok = true;
  p = scratch_sizes(c, p, s, &sizes_ok);
  if (!sizes_ok)
    return false;
  if (pkf_type_is(c, p, PKF_N_IDENTIFIER) && c->ents)
    for (int i = 0; i < c->ents->npol; i++) {
      const struct pkf_policy_alias *al = &c->ents->pols[i];
      if (al->fn != c->fn || !pkf_is(c, p, al->name))
        continue;
      uint32_t at = ts_node_start_byte(p);
      p = scratch_sizes(c, al->node, s, &sizes_ok);
      for (int k = 0; k < al->nsizes && ts_node_start_byte(al->sizes[k]) < at; k++)
        scratch_sizes(c, al->sizes[k], s, &sizes_ok); /* later calls set their levels again */
      break;
    }
  if (!sizes_ok)
    return false;
  int kind = pk_call_named(c, p, "RangePolicy") ? PKI_POLICY_RANGE
             : pk_call_named(c, p, "MDRangePolicy") ? PKI_POLICY_MDRANGE
             : pk_call_named(c, p, "TeamPolicy") ? PKI_POLICY_TEAM : -1;
  s->range = kind < 0 ? PKI_POLICY_RANGE : kind;
  if (kind < 0) { /* an int expression n: RangePolicy(0, n) */
    s->nargs = 2;
    s->args = pki_alloc(c->m->arena, sizeof *s->args * 2);
    s->args[0] = pki_new_expr(c->m, PKI_E_INT, pkf_span(p));
    return (s->args[1] = pkf_expr(c, p)) != NULL;
  }
  pkf_nodes all = pkf_children(c, pkf_field(c, p, PKF_F_ARGUMENTS));
  TSNode a[4];
  uint32_t n = 0;
  for (uint32_t i = 0; i < all.n; i++) {
    if (pkf_type_is(c, all.v[i], PKF_N_KEYWORD_ARGUMENT) || (n == 0 && is_space_arg(c, all.v[i])))
      continue; /* iterate=..., the execution space */
    if (n == 4) {
      n++;
      break;
    }
    a[n++] = all.v[i];
  }
  static const char *const team_kw[] = {"league_size", "team_size", "vector_length"};
  for (uint32_t k = n; kind == PKI_POLICY_TEAM && k < 3; k++) /* TeamPolicy(league_size=...) */
    for (uint32_t i = 0; i < all.n; i++)
      if (pkf_type_is(c, all.v[i], PKF_N_KEYWORD_ARGUMENT) &&
          pkf_is(c, pkf_field(c, all.v[i], PKF_F_NAME), team_kw[k]) && n == k)
        a[n++] = pkf_field(c, all.v[i], PKF_F_VALUE);
  int lo = kind == PKI_POLICY_RANGE ? 2 : 2, hi = kind == PKI_POLICY_RANGE ? 2 : 3;
  if (n < (uint32_t)lo || n > (uint32_t)hi) {
    pki_error(c->d, pkf_span(p), "arity",
              "wrong number of arguments to '%s': expected %d%s%s, got %u",
              pkf_text(c, pkf_field(c, p, PKF_F_FUNCTION)), lo, hi > lo ? " or " : "",
              hi > lo ? "3" : "", n);
    return false;
  }
  s->nargs = (int)n;
  s->args = pki_alloc(c->m->arena, sizeof *s->args * n);
  bool ok = true;
  for (uint32_t i = 0; i < n; i++) {
    if (kind == PKI_POLICY_MDRANGE)
      ok &= (s->args[i] = list_expr(c, a[i])) != NULL;
    else if (kind == PKI_POLICY_TEAM && i == 1 && is_auto(c, a[i]))
      s->args[i] = NULL; /* Kokkos::AUTO */
    else
      ok &= (s->args[i] = pkf_expr(c, a[i])) != NULL;
  }
  return ok;
}

/* ------------------------------------------------------------------ kernel */

bool pkf_lambda_params_ok(pkf_ctx *c, TSNode lam, int pattern) {
  pkf_nodes ps = pkf_children(c, pkf_field(c, lam, PKF_F_PARAMETERS));
  uint32_t want = pattern == PKI_PATTERN_REDUCE ? 2 : 1;
  if (pattern == PKI_PATTERN_SCAN || ps.n != want ||
      ts_node_is_null(pkf_field(c, lam, PKF_F_BODY))) {
    pki_error(c->d, pkf_span(lam), "bad-lambda",
              pattern == PKI_PATTERN_SCAN
                  ? "a parallel_scan needs a @pk.workunit, not a lambda"
                  : pattern == PKI_PATTERN_REDUCE
                        ? "a parallel_reduce lambda takes (i, acc), e.g. lambda i, acc: acc + x[i]"
                        : "a parallel_for lambda takes one parameter, the index");
    return false;
  }
  for (uint32_t i = 0; i < ps.n; i++)
    if (!pkf_type_is(c, ps.v[i], PKF_N_IDENTIFIER)) {
      pki_error(c->d, pkf_span(ps.v[i]), "bad-lambda", "lambda parameters must be plain names");
      return false;
    }
  return true;
}

bool pkf_lambda_body(pkf_ctx *c, pki_func *f, TSNode body, pki_expr *fill) {
  int n0 = f->body.n;
  if (fill) {
    pki_expr *v = pkf_expr(c, body);
    if (!v)
      return false;
    pki_stmt *s = pki_new_stmt(c->m, PKI_S_ASSIGN, pkf_span(body));
    s->target = pki_new_expr_n(c->m, PKI_E_INDEX, fill->span, 2);
    s->target->args[0] = fill;
    s->target->args[1] = pki_new_expr(c->m, PKI_E_VAR, fill->span);
    s->target->args[1]->var = f->index[0];
    s->value = v;
    pki_block_push(c->m->arena, &f->body, s);
    return true;
  }
  if (!f->acc) {
    pkf_lower_call_stmt(c, body, &f->body); /* pk.printf(...) or another call */
    return f->body.n > n0;
  }
  pki_expr *sum = pkf_expr(c, body), *rest = sum ? pkf_acc_sum_rest(c, sum, f->acc) : NULL;
  if (!rest) {
    if (sum)
      pki_error(c->d, pkf_span(body), "bad-lambda",
                "a parallel_reduce lambda's body must be a sum that starts with the "
                "accumulator, e.g. '%s + expression'", f->acc->name);
    return false;
  }
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_AUGASSIGN, pkf_span(body));
  s->op = PKI_OP_ADD;
  s->target = pki_new_expr(c->m, PKI_E_VAR, pkf_span(body));
  s->target->var = f->acc;
  s->value = rest;
  pki_block_push(c->m->arena, &f->body, s);
  return true;
}

/* A lambda of @pk.main as a closure workunit; fill: the View argument of the
 * `pk.parallel_for(n, lambda i: expr, view)` form, or a null node. */
static pki_func *lambda(pkf_ctx *c, TSNode lam, int pattern, pki_type acct, TSNode fill) {
  if (!pkf_lambda_params_ok(c, lam, pattern))
    return NULL;
  pkf_nodes ps = pkf_children(c, pkf_field(c, lam, PKF_F_PARAMETERS));
  struct pkf_ents *st = pkf_ents_get(c);
  pki_func *f = pki_new_func(c->m, pki_sprintf(c->m->arena, "%s_lambda%d", c->fn->name,
                                                st->nlambda++), pkf_span(lam));
  f->is_closure = true;
  f->is_workunit = true;
  f->pattern = pattern;
  pki_var *iv = pki_new_var(c->m, pkf_text(c, ps.v[0]), PKI_VAR_INDEX, pki_int_type,
                            pkf_span(ps.v[0]));
  pki_func_add_index(c->m, f, iv);
  pkf_scope sc;
  pkf_scope_push(c, &sc, "lambda", pkf_span(lam));
  pkf_scope_bind(c, iv);
  if (ps.n == 2) {
    f->acc = pki_new_var(c->m, pkf_text(c, ps.v[1]), PKI_VAR_ACC, acct, pkf_span(ps.v[1]));
    pkf_scope_bind(c, f->acc);
  }
  pki_func *outer = c->fn;
  bool host = c->host;
  c->fn = f;
  c->host = false;
  pki_expr *fv = ts_node_is_null(fill) ? NULL : pkf_expr(c, fill);
  bool ok = (ts_node_is_null(fill) || fv) &&
            pkf_lambda_body(c, f, pkf_field(c, lam, PKF_F_BODY), fv);
  c->fn = outer;
  c->host = host;
  pkf_scope_pop(c);
  if (!ok)
    return NULL;
  pki_func_add_closure(c->m, outer, f);
  return f;
}

static pki_func *workunit_ref(pkf_ctx *c, TSNode k, int pattern) {
  const char *an = pkf_text(c, pkf_field(c, k, PKF_F_ATTRIBUTE));
  if (pkf_is_callback(c, c->ent, an)) {
    pki_error(c->d, pkf_span(k), "callback-call",
              "a @pk.callback runs in Python; it cannot be called from a kernel or @pk.main");
    return NULL;
  }
  pki_func *f = NULL;
  for (int i = 0; i < c->ent->nfuncs; i++)
    if (!strcmp(c->ent->funcs[i]->name, an))
      f = c->ent->funcs[i];
  if (!f || !f->is_workunit) {
    pki_error(c->d, pkf_span(k), "bad-dispatch",
              "'%s' is not a @pk.workunit of workload '%s'; dispatch one of its workunits "
              "(self.name) or a lambda", pkf_text(c, k), c->ent->name);
    return NULL;
  }
  int have = f->final ? PKI_PATTERN_SCAN : f->acc ? PKI_PATTERN_REDUCE : PKI_PATTERN_FOR;
  if (have != pattern) {
    static const char *const names[] = {"parallel_for", "parallel_reduce", "parallel_scan"};
    pki_error(c->d, pkf_span(k), "bad-dispatch",
              "workunit '%s' is a %s workunit but is dispatched with pk.%s", f->name,
              names[have], names[pattern]);
    return NULL;
  }
  return f;
}

/* Lowers a dispatch; left/ann: the assignment's target and annotation (may be null). */
/* Lowers dispatch `call` of statement stmt into out: its result goes to left
 * (annotated ann), or, temp not NULL, to a new local of that name whose
 * variable is returned (NULL after an error). */
static pki_var *dispatch(pkf_ctx *c, TSNode stmt, TSNode call, TSNode left, TSNode ann,
                         const char *temp, pki_block *out) {
  int pattern = dispatch_pattern(c, call);
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_DISPATCH, pkf_span(stmt));
  s->pattern = pattern;
  pkf_nodes ch = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  uint32_t k = 0;
  if (ch.n > 0 && pkf_type_is(c, ch.v[0], PKF_N_STRING)) {
    const char *t = pkf_text(c, ch.v[0]);
    s->str = pki_strndup(c->m->arena, t + 1, strlen(t) - 2);
    k = 1;
  }
  bool fill = pattern == PKI_PATTERN_FOR && ch.n == k + 3 &&
              pkf_type_is(c, ch.v[k + 1], PKF_N_LAMBDA); /* (n, lambda i: expr, view) */
  if (pattern == PKI_PATTERN_REDUCE && ch.n == k + 3 &&
      pkf_type_is(c, ch.v[k + 2], PKF_N_KEYWORD_ARGUMENT) &&
      pkf_is(c, pkf_field(c, ch.v[k + 2], PKF_F_NAME), "reducer"))
    ch.n--; /* reducer=pk.Max: the workunit's reducer, read from its launches (lower_team.c) */
  if (ch.n != k + 2 && !fill) {
    pki_error(c->d, pkf_span(call), "bad-dispatch",
              "a dispatch takes ([label,] policy, kernel), e.g. pk.parallel_for(n, self.work), "
              "or ([label,] policy, lambda i: value, view) to fill a View");
    return NULL;
  }
  if (pattern == PKI_PATTERN_FOR && !ts_node_is_null(left)) {
    pki_error(c->d, pkf_span(stmt), "bad-dispatch", "pk.parallel_for returns nothing");
    return NULL;
  }
  bool ok = policy(c, ch.v[k], s);
  /* the target and its type */
  pki_type t = pki_void_type;
  bool annotated = false;
  if (!ts_node_is_null(ann) && pkf_type(c, ann, false, &t))
    annotated = true;
  pki_var *tv = NULL;
  bool fresh = temp != NULL;
  if (temp) {
    /* the temporary: declared below */
  } else if (pkf_type_is(c, left, PKF_N_IDENTIFIER)) {
    const char *nm = pkf_text(c, left);
    tv = pkf_lookup(c, nm, strlen(nm));
    pki_var *m = tv ? NULL : pkf_bare_member(c, left);
    if (m) { /* `energy = pk.parallel_reduce(...)` into the member energy */
      pki_expr *te = pkf_bare_member_target(c, left, m);
      if (!te)
        return NULL;
      tv = te->var;
    }
    fresh = tv == NULL;
  } else if (!ts_node_is_null(left)) {
    pki_expr *te = NULL;
    if (!pkf_ent_target(c, left, &te) || !te) {
      if (te == NULL && !pkf_type_is(c, left, PKF_N_ATTRIBUTE))
        pki_error(c->d, pkf_span(left), "bad-dispatch",
                  "the result of a dispatch goes to a variable or a scalar member (self.x)");
      return NULL;
    }
    tv = te->var;
  }
  if (tv && !annotated)
    t = tv->type;
  TSNode kn = ch.v[k + 1];
  pki_func *f = NULL;
  if (pkf_type_is(c, kn, PKF_N_LAMBDA)) {
    f = lambda(c, kn, pattern, t.kind == PKI_VOID ? pki_float_type : t,
               fill ? ch.v[k + 2] : (TSNode){0});
  } else if (pkf_type_is(c, kn, PKF_N_ATTRIBUTE) &&
             pkf_is(c, pkf_field(c, kn, PKF_F_OBJECT), "self")) {
    f = workunit_ref(c, kn, pattern);
  } else {
    pki_error(c->d, pkf_span(kn), "bad-dispatch",
              "@pk.main dispatches a workunit of its workload (self.name) or a lambda");
  }
  if (!ok || !f)
    return NULL;
  s->closure = f;
  static const char *const pols[] = {"pk.RangePolicy (or an int)", "pk.MDRangePolicy",
                                     "pk.TeamPolicy"};
  if (!f->is_closure && f->policy != (pki_policy)s->range) {
    pki_error(c->d, pkf_span(ch.v[k]), "bad-dispatch",
              "workunit '%s' must be dispatched with %s", f->name, pols[f->policy]);
    return NULL;
  }
  if (f->is_closure)
    f->policy = (pki_policy)s->range;
  if (fresh) { /* `s = pk.parallel_reduce(...)`: a declaration, then the dispatch */
    pki_type vt = t.kind == PKI_VOID && f->acc ? f->acc->type : t;
    tv = temp ? declare_named(c, temp, pkf_span(call), vt) : declare(c, left, vt, annotated);
    pki_stmt *decl = pki_new_stmt(c->m, PKI_S_DECL, pkf_span(stmt));
    decl->var = tv;
    pki_block_push(c->m->arena, out, decl);
  }
  if (tv) {
    s->target = pki_new_expr(c->m, PKI_E_VAR, pkf_span(temp ? call : left));
    s->target->var = tv;
  }
  pki_block_push(c->m->arena, out, s);
  return tv;
}

/* `self.x: T = v` in a classtype constructor: an assignment to the field. */
static bool ctor_field_decl(pkf_ctx *c, TSNode a, pki_block *out) {
  if (!c->fn || !c->fn->is_ctor)
    return false;
  TSNode left = pkf_field(c, a, PKF_F_LEFT), right = pkf_field(c, a, PKF_F_RIGHT);
  if (ts_node_is_null(pkf_field(c, a, PKF_F_TYPE)) ||
      !pkf_type_is(c, left, PKF_N_ATTRIBUTE) ||
      !pkf_is(c, pkf_field(c, left, PKF_F_OBJECT), "self"))
    return false;
  if (ts_node_is_null(right))
    return true;
  pki_expr *t = NULL, *v;
  if (!pkf_ent_target(c, left, &t) || !t)
    return true;
  pki_type ft = t->kind == PKI_E_VAR && t->var ? t->var->type : t->type;
  if (ft.kind == PKI_ARRAY && pkf_type_is(c, right, PKF_N_LIST))
    v = pkf_list_literal(c, right, ft.elem); /* self.v: List[float] = [x, y, z] */
  else
    v = pkf_expr(c, right);
  if (!v)
    return true;
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_ASSIGN, pkf_span(a));
  s->target = t;
  s->value = v;
  pki_block_push(c->m->arena, out, s);
  return true;
}

/* An annotation typed_decl accepts: none, or pk.BinOp1D/BinOp3D/BinSort. */
static bool decl_annotation_ok(pkf_ctx *c, TSNode ann) {
  if (ts_node_is_null(ann))
    return true;
  TSNode t = pkf_unwrap_type(c, ann);
  if (!pkf_type_is(c, t, PKF_N_ATTRIBUTE) ||
      !pkf_alias_is(c, pkf_field(c, t, PKF_F_OBJECT), PKF_AL_PK))
    return false;
  TSNode at = pkf_field(c, t, PKF_F_ATTRIBUTE);
  return pkf_is(c, at, "BinOp1D") || pkf_is(c, at, "BinOp3D") || pkf_is(c, at, "BinSort");
}

/* `name = Vec3(...)` / `name = pk.Timer()` / `binop = pk.BinOp3D(...)` /
 * `sorter = pk.BinSort(...)`: a new local of that type (a BinOp's or BinSort's
 * key View type is filled in by pki_check from the constructor). */
static bool typed_decl(pkf_ctx *c, TSNode a, pki_block *out) {
  TSNode left = pkf_field(c, a, PKF_F_LEFT), right = pkf_field(c, a, PKF_F_RIGHT);
  if (!pkf_type_is(c, left, PKF_N_IDENTIFIER) ||
      !decl_annotation_ok(c, pkf_field(c, a, PKF_F_TYPE)) || !pkf_type_is(c, right, PKF_N_CALL))
    return false;
  const char *nm = pkf_text(c, left);
  if (pkf_lookup(c, nm, strlen(nm)))
    return false;
  pki_type t = pki_void_type;
  pki_entity *cls = pkf_classtype_find(c, pkf_field(c, right, PKF_F_FUNCTION));
  if (cls && pkf_type_is(c, pkf_field(c, right, PKF_F_FUNCTION), PKF_N_IDENTIFIER))
    t = pki_class_type(cls);
  else if (pk_call_named(c, right, "Timer"))
    t.kind = PKI_TIMER;
  else if (pk_call_named(c, right, "BinOp1D") || pk_call_named(c, right, "BinOp3D"))
    t.kind = PKI_BINOP, t.length = pk_call_named(c, right, "BinOp3D") ? 3 : 1;
  else if (pk_call_named(c, right, "BinSort"))
    t.kind = PKI_BINSORT;
  else
    return false;
  pki_expr *v = pkf_expr(c, right);
  if (!v)
    return true;
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_DECL, pkf_span(a));
  s->var = declare(c, left, t, false);
  s->value = v;
  pki_block_push(c->m->arena, out, s);
  return true;
}

/* Dispatches inside expression x of a main statement (not x itself, nor the
 * right side of an assignment: those are the statement's own), where Python
 * always evaluates them: each runs before the statement into a temporary
 * (c->hoisted). Ones under `if`-expressions, `and`/`or`, lambdas and
 * comprehensions stay where they are (and are rejected there). */
static void hoist_dispatches(pkf_ctx *c, TSNode stmt, TSNode x, pki_block *out) {
  pkf_stack st = {0};
  pkf_push(c, &st, x);
  TSNode top = pkf_type_is(c, x, PKF_N_ASSIGNMENT) ? pkf_field(c, x, PKF_F_RIGHT) : x;
  TSNode found[8];
  int n = 0;
  while (st.n > 0 && n < 8) {
    TSNode y = st.v[--st.n];
    if (dispatch_pattern(c, y) >= 0 && !ts_node_eq(y, top)) {
      found[n++] = y;
      continue;
    }
    int t = pkf_ntype_of(c, y);
    if (t == PKF_N_CONDITIONAL_EXPRESSION || t == PKF_N_BOOLEAN_OPERATOR || t == PKF_N_LAMBDA ||
        t == PKF_N_LIST_COMPREHENSION || t == PKF_N_GENERATOR_EXPRESSION ||
        t == PKF_N_SET_COMPREHENSION || t == PKF_N_DICTIONARY_COMPREHENSION)
      continue;
    pkf_nodes ch = pkf_children(c, y);
    for (uint32_t i = ch.n; i-- > 0;) /* pushed last first: popped in source order */
      pkf_push(c, &st, ch.v[i]);
  }
  for (int i = 0; i < n; i++) {
    const char *name = pki_sprintf(c->m->arena, "pkc.result_%u_%u", pkf_span(found[i]).line,
                                   pkf_span(found[i]).col);
    pki_var *v = dispatch(c, stmt, found[i], (TSNode){0}, (TSNode){0}, name, out);
    if (!v)
      continue;
    c->hoisted = pki_grow(c->m->arena, c->hoisted, c->nhoisted, &c->caphoisted,
                          sizeof *c->hoisted);
    c->hoisted[c->nhoisted++] = (struct pkf_hoisted){.call = found[i], .var = v};
  }
}

bool pkf_ent_stmt(pkf_ctx *c, TSNode n, pki_block *out) {
  if (pkf_named_child_count(c, n) != 1)
    return false;
  TSNode x = pkf_named_child(c, n, 0);
  if (c->host)
    hoist_dispatches(c, n, x, out);
  if (c->host && dispatch_pattern(c, x) >= 0) {
    dispatch(c, n, x, (TSNode){0}, (TSNode){0}, NULL, out);
    return true;
  }
  if (policy_sizes_stmt(c, x))
    return true;
  if (!pkf_type_is(c, x, PKF_N_ASSIGNMENT))
    return false;
  TSNode right = pkf_field(c, x, PKF_F_RIGHT);
  if (c->host && dispatch_pattern(c, right) >= 0) {
    dispatch(c, n, right, pkf_field(c, x, PKF_F_LEFT), pkf_field(c, x, PKF_F_TYPE), NULL, out);
    return true;
  }
  return ctor_field_decl(c, x, out) || typed_decl(c, x, out) || policy_alias(c, x);
}
