/*
 * lower_team.c - the kernel side of team policies and friends: workunit
 * heads (Range / MDRange / Team work indices, pk.Acc/Max/Min/Prod
 * accumulators), nested defs lowered as closures at their call site,
 * pk.parallel_for/reduce/scan over TeamThreadRange & co (PKI_S_NESTED),
 * pk.single (PKI_S_SINGLE) and `nonlocal`.
 */
#include "fe.h"

#include <stdlib.h>

typedef struct pkf_nonlocal {
  pki_var *v;
  pki_func *fn;
  struct pkf_nonlocal *next;
} pkf_nonlocal;

enum { MAX_MD = 6 };

/* A type annotation PyKokkos accepts on a work index: any integer type
 * (int, pk.int, pk.int32, pk.int64, numpy's), or float (PyKokkos tolerates it;
 * the index stays an integer). Quiet: a failed guess reports nothing. */
static bool is_int_ann(pkf_ctx *c, TSNode ann) {
  if (ts_node_is_null(ann))
    return false;
  TSNode e = pkf_unwrap_type(c, ann);
  if (pkf_is(c, e, "int") || pkf_is(c, e, "float"))
    return true;
  pki_type t;
  return pkf_type_quiet(c, ann, false, &t) && pki_is_int(t.kind);
}

static bool is_pk_call(pkf_ctx *c, TSNode n, const char *name) {
  if (!pkf_type_is(c, n, PKF_N_CALL))
    return false;
  TSNode f = pkf_field(c, n, PKF_F_FUNCTION);
  return pkf_type_is(c, f, PKF_N_ATTRIBUTE) &&
         pkf_alias_is(c, pkf_field(c, f, PKF_F_OBJECT), PKF_AL_PK) &&
         (!name || pkf_is(c, pkf_field(c, f, PKF_F_ATTRIBUTE), name));
}

static const char *pk_call_name(pkf_ctx *c, TSNode n) {
  return is_pk_call(c, n, NULL)
             ? pkf_text(c, pkf_field(c, pkf_field(c, n, PKF_F_FUNCTION), PKF_F_ATTRIBUTE))
             : NULL;
}

/* ------------------------------------------------ MDRange rank from call sites */

/* Rank of pk.MDRangePolicy(...) at n (its first list argument), or of a name
 * assigned one somewhere in the file; 0 if n is not one. */
static int mdrange_rank(pkf_ctx *c, TSNode n, TSNode scope_root, int depth);

/* Is t an assignment `name = ...` (a plain name on the left)? */
static bool assigns(pkf_ctx *c, TSNode t, TSNode name) {
  if (!pkf_type_is(c, t, PKF_N_ASSIGNMENT) ||
      !pkf_type_is(c, pkf_field(c, t, PKF_F_LEFT), PKF_N_IDENTIFIER))
    return false;
  TSNode l = pkf_field(c, t, PKF_F_LEFT);
  uint32_t a = ts_node_end_byte(l) - ts_node_start_byte(l);
  uint32_t b = ts_node_end_byte(name) - ts_node_start_byte(name);
  return a == b && !memcmp(c->src + ts_node_start_byte(l), c->src + ts_node_start_byte(name), a);
}

/* The `name = pk.<policy>(...)` under t that name at its use reads: the
 * last one before the use (a variable reassigned between loops, e.g. a 2-D
 * and then a 3-D MDRangePolicy), else the first after it; its assignment
 * node (the scope for looking further), or null. */
static void find_assigned(pkf_ctx *c, TSNode t, TSNode name, const char *policy, int depth,
                          bool skip_defs, TSNode *before, TSNode *after) {
  if (ts_node_is_null(t) || depth > 200 ||
      (skip_defs && (pkf_type_is(c, t, PKF_N_FUNCTION_DEFINITION) ||
                     pkf_type_is(c, t, PKF_N_CLASS_DEFINITION))))
    return;
  if (assigns(c, t, name) && is_pk_call(c, pkf_field(c, t, PKF_F_RIGHT), policy)) {
    if (ts_node_start_byte(t) < ts_node_start_byte(name))
      *before = t; /* in source order: the last one seen before the use wins */
    else if (ts_node_is_null(*after))
      *after = t;
  }
  pkf_nodes ch = pkf_children(c, t);
  for (uint32_t i = 0; i < ch.n; i++)
    find_assigned(c, ch.v[i], name, policy, depth + 1, skip_defs, before, after);
}

/* The assignment of a policy to name, looked for where Python looks the
 * name up: under t, or (t the module) in the function using name, then in
 * the module's own statements (not in other functions: a file of many
 * launches would be walked once per launch). */
static TSNode assigned_policy(pkf_ctx *c, TSNode t, TSNode name, const char *policy, int depth) {
  TSNode before = {0}, after = {0};
  if (!ts_node_eq(t, c->root)) {
    find_assigned(c, t, name, policy, depth, false, &before, &after);
    return ts_node_is_null(before) ? after : before;
  }
  for (TSNode def = pkf_parent(c, name); !ts_node_is_null(def) && ts_node_is_null(before) &&
                                         ts_node_is_null(after);
       def = pkf_parent(c, def)) /* the function, then the functions around it */
    if (pkf_type_is(c, def, PKF_N_FUNCTION_DEFINITION))
      find_assigned(c, def, name, policy, depth, false, &before, &after);
  if (ts_node_is_null(before) && ts_node_is_null(after)) {
    pkf_nodes top = pkf_children(c, c->root);
    for (uint32_t i = 0; i < top.n; i++)
      find_assigned(c, top.v[i], name, policy, depth + 1, true, &before, &after);
  }
  return ts_node_is_null(before) ? after : before;
}

static int assigned_rank(pkf_ctx *c, TSNode t, TSNode name, int depth) {
  TSNode a = assigned_policy(c, t, name, "MDRangePolicy", 0);
  return ts_node_is_null(a) ? 0 : mdrange_rank(c, pkf_field(c, a, PKF_F_RIGHT), a, depth + 1);
}

static int mdrange_rank(pkf_ctx *c, TSNode n, TSNode root, int depth) {
  if (pkf_type_is(c, n, PKF_N_IDENTIFIER))
    return depth < 4 ? assigned_rank(c, root, n, depth + 1) : 0;
  if (!is_pk_call(c, n, "MDRangePolicy"))
    return 0;
  pkf_nodes args = pkf_children(c, pkf_field(c, n, PKF_F_ARGUMENTS));
  for (uint32_t i = 0; i < args.n; i++)
    if (pkf_type_is(c, args.v[i], PKF_N_LIST))
      return (int)pkf_named_child_count(c, args.v[i]);
  return -1; /* pk.MDRangePolicy(lo, hi) with its bounds in variables: rank unknown */
}

/* Is t a pk.parallel_*(...) call? (no allocation) */
static bool is_parallel_call(pkf_ctx *c, TSNode t) {
  if (!is_pk_call(c, t, NULL))
    return false;
  TSNode a = pkf_field(c, pkf_field(c, t, PKF_F_FUNCTION), PKF_F_ATTRIBUTE);
  uint32_t s = ts_node_start_byte(a), e = ts_node_end_byte(a);
  return e - s >= 9 && !memcmp(c->src + s, "parallel_", 9);
}

/* Collects every pk.parallel_*(...) call of the file into c->par_calls:
 * a pre-order cursor walk over the named nodes up to depth 200 that only
 * enters subtrees whose text contains "parallel_" (found by a text scan first). */
static void collect_parallel_calls(pkf_ctx *c, TSNode root) {
  if (ts_node_is_null(root))
    return;
  uint32_t end = ts_node_end_byte(root), nocc = 0, capocc = 0, oi = 0, cap = 0;
  uint32_t *occ = NULL;
  for (uint32_t i = 0; i + 9 <= end; i++) {
    const char *p = memchr(c->src + i, 'p', end - 8 - i);
    if (!p)
      break;
    i = (uint32_t)(p - c->src);
    if (memcmp(p, "parallel_", 9))
      continue;
    if (nocc == capocc) {
      capocc = capocc ? capocc * 2 : 64;
      uint32_t *o = realloc(occ, sizeof *occ * capocc);
      if (!o)
        break;
      occ = o;
    }
    occ[nocc++] = i;
  }
  TSTreeCursor cur = ts_tree_cursor_new(root);
  int depth = 0;
  for (;;) {
    TSNode t = ts_tree_cursor_current_node(&cur);
    uint32_t s = ts_node_start_byte(t);
    while (oi < nocc && occ[oi] < s)
      oi++;
    bool named = oi < nocc && occ[oi] < ts_node_end_byte(t) && ts_node_is_named(t) &&
                 !ts_node_is_extra(t);
    if (named && pkf_type_is(c, t, PKF_N_CALL) && is_parallel_call(c, t)) {
      if (c->par_calls.n == cap) {
        cap = cap ? cap * 2 : 16;
        TSNode *v = pki_alloc(c->m->arena, sizeof(TSNode) * cap);
        if (c->par_calls.n)
          memcpy(v, c->par_calls.v, sizeof(TSNode) * c->par_calls.n);
        c->par_calls.v = v;
      }
      c->par_calls.v[c->par_calls.n++] = t;
    }
    if (named && depth < 200 && ts_tree_cursor_goto_first_child(&cur)) {
      depth++;
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cur)) {
      if (depth == 0 || !ts_tree_cursor_goto_parent(&cur)) {
        ts_tree_cursor_delete(&cur);
        free(occ);
        return;
      }
      depth--;
    }
  }
}

/* What the pk.parallel_*([label,] POLICY, kernel, ...) calls naming kernel
 * say about it: the MDRange rank (0: none says), the pattern (-1: no call
 * found; two patterns: the first) and whether a pk.TeamPolicy runs it. */
typedef struct call_sites {
  int rank;
  int pattern;
  bool team;
  int nsites;  /* calls naming the kernel */
  bool opaque; /* one passes **kwargs or *args: its keywords are unknown */
  int reducer; /* `reducer=pk.Max` at a call (PyKokkos): a pki_reducer, -1 none */
  TSNode reducer_at;
} call_sites;

static bool is_team_policy(pkf_ctx *c, TSNode n, int depth) {
  while (pkf_type_is(c, n, PKF_N_CALL) &&
         pkf_type_is(c, pkf_field(c, n, PKF_F_FUNCTION), PKF_N_ATTRIBUTE) &&
         !is_pk_call(c, n, NULL)) /* pk.TeamPolicy(...).set_scratch_size(...) */
    n = pkf_field(c, pkf_field(c, n, PKF_F_FUNCTION), PKF_F_OBJECT);
  if (pkf_type_is(c, n, PKF_N_IDENTIFIER))
    return depth < 2 && !ts_node_is_null(assigned_policy(c, c->root, n, "TeamPolicy", 0));
  return is_pk_call(c, n, "TeamPolicy");
}

/* Does the body call a TeamMember method on name (name.league_rank(), ...)? */
static bool used_as_member(pkf_ctx *c, TSNode n, TSNode name, int depth) {
  if (depth > 200)
    return false;
  if (pkf_type_is(c, n, PKF_N_CALL)) {
    TSNode fn = pkf_field(c, n, PKF_F_FUNCTION);
    if (pkf_type_is(c, fn, PKF_N_ATTRIBUTE) &&
        pkf_type_is(c, pkf_field(c, fn, PKF_F_OBJECT), PKF_N_IDENTIFIER) &&
        !strcmp(pkf_text(c, pkf_field(c, fn, PKF_F_OBJECT)), pkf_text(c, name))) {
      static const char *const ms[] = {"league_rank", "team_rank", "league_size", "team_size",
                                       "team_barrier", "team_scratch", "thread_scratch"};
      for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
        if (pkf_is(c, pkf_field(c, fn, PKF_F_ATTRIBUTE), ms[i]))
          return true;
    }
  }
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++)
    if (used_as_member(c, kids.v[i], name, depth + 1))
      return true;
  return false;
}

/* The arguments of pk.parallel_*([label,] POLICY, kernel, ...) call t and
 * the index of its policy among them, or -1 if t does not name kernel. */
static int policy_arg(pkf_ctx *c, TSNode t, const char *kernel, pkf_nodes *args) {
  *args = pkf_children(c, pkf_field(c, t, PKF_F_ARGUMENTS));
  uint32_t k = args->n && pkf_type_is(c, args->v[0], PKF_N_STRING) ? 1 : 0;
  if (k + 1 >= args->n)
    return -1;
  TSNode kn = args->v[k + 1];
  if (pkf_type_is(c, kn, PKF_N_ATTRIBUTE))
    kn = pkf_field(c, kn, PKF_F_ATTRIBUTE);
  return pkf_is(c, kn, kernel) ? (int)k : -1;
}

/* Does some call naming the kernel pass parameter name by keyword? */
static bool passed_by_keyword(pkf_ctx *c, const char *kernel, TSNode name) {
  for (uint32_t ci = 0; ci < c->par_calls.n; ci++) {
    pkf_nodes args;
    int k = policy_arg(c, c->par_calls.v[ci], kernel, &args);
    for (uint32_t i = (uint32_t)k + 2; k >= 0 && i < args.n; i++)
      if (pkf_type_is(c, args.v[i], PKF_N_KEYWORD_ARGUMENT) &&
          !strcmp(pkf_text(c, pkf_field(c, args.v[i], PKF_F_NAME)), pkf_text(c, name)))
        return true;
  }
  return false;
}

/* pk.Sum / Prod / Min / Max / MaxLoc / MinLoc / BAnd / BOr / LAnd / LOr / MinMax /
 * MinMaxLoc as `reducer=` at a launch: its pki_reducer; -2 for another pk.NAME
 * (reported at the workunit); -3 for a value known at run time only (a
 * helper's parameter: the body tells, pkf_reducer_from_body). */
static int reducer_of(pkf_ctx *c, TSNode n) {
  static const struct { const char *name; pki_reducer r; } names[] = {
      {"Sum", PKI_REDUCER_SUM}, {"Prod", PKI_REDUCER_PROD}, {"Min", PKI_REDUCER_MIN},
      {"Max", PKI_REDUCER_MAX}, {"MaxLoc", PKI_REDUCER_MAXLOC}, {"MinLoc", PKI_REDUCER_MINLOC},
      {"BAnd", PKI_REDUCER_BAND}, {"BOr", PKI_REDUCER_BOR}, {"LAnd", PKI_REDUCER_LAND},
      {"LOr", PKI_REDUCER_LOR}, {"MinMax", PKI_REDUCER_MINMAX},
      {"MinMaxLoc", PKI_REDUCER_MINMAXLOC}};
  if (!pkf_type_is(c, n, PKF_N_ATTRIBUTE) || !pkf_alias_is(c, pkf_field(c, n, PKF_F_OBJECT), PKF_AL_PK))
    return pkf_type_is(c, n, PKF_N_IDENTIFIER) || pkf_type_is(c, n, PKF_N_SUBSCRIPT) ||
                   pkf_type_is(c, n, PKF_N_ATTRIBUTE)
               ? -3
               : -2;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (pkf_is(c, pkf_field(c, n, PKF_F_ATTRIBUTE), names[i].name))
      return (int)names[i].r;
  return -2;
}

static call_sites call_site_info(pkf_ctx *c, const char *kernel) {
  call_sites cs = {.pattern = -1, .reducer = -1};
  if (ts_node_is_null(c->root))
    return cs;
  if (!c->par_calls_done) {
    collect_parallel_calls(c, c->root);
    c->par_calls_done = true;
  }
  for (uint32_t ci = 0; ci < c->par_calls.n; ci++) {
    TSNode t = c->par_calls.v[ci];
    pkf_nodes args;
    int ki = policy_arg(c, t, kernel, &args);
    if (ki < 0)
      continue;
    uint32_t k = (uint32_t)ki;
    cs.nsites++;
    for (uint32_t i = k + 2; i < args.n; i++) {
      cs.opaque = cs.opaque || !pkf_type_is(c, args.v[i], PKF_N_KEYWORD_ARGUMENT);
      if (pkf_type_is(c, args.v[i], PKF_N_KEYWORD_ARGUMENT) &&
          pkf_is(c, pkf_field(c, args.v[i], PKF_F_NAME), "reducer") && cs.reducer < 0) {
        cs.reducer_at = pkf_field(c, args.v[i], PKF_F_VALUE);
        cs.reducer = reducer_of(c, cs.reducer_at);
      }
    }
    if (cs.pattern < 0) {
      const char *w = pk_call_name(c, t);
      cs.pattern = !strcmp(w, "parallel_reduce") ? PKI_PATTERN_REDUCE
                   : !strcmp(w, "parallel_scan") ? PKI_PATTERN_SCAN : PKI_PATTERN_FOR;
    }
    if (cs.rank <= 0) { /* a known rank wins over an MDRange of unknown rank (-1) */
      int r = mdrange_rank(c, args.v[k], c->root, 0);
      if (r > 0 || !cs.rank)
        cs.rank = r;
    }
    cs.team = cs.team || is_team_policy(c, args.v[k], 0);
  }
  return cs;
}

/* --------------------------------------------------------- workunit heads */

static pki_var *head_var(pkf_ctx *c, const pkf_param *p, pki_var_kind k, pki_type t) {
  pki_var *v = pki_new_var(c->m, pkf_text(c, p->name), k, t, pkf_span(p->name));
  v->annotated = true;
  return v;
}

/* Unannotated parameters after the index are typed from the pattern the
 * call sites use (PyKokkos: the accumulator is a double unless annotated,
 * the scan's third parameter its final-pass flag); without call sites, the
 * names PyKokkos code uses for them decide. */
static bool acc_name(pkf_ctx *c, TSNode name) {
  return pkf_is(c, name, "acc") || pkf_is(c, name, "accumulator") || pkf_is(c, name, "update") ||
         pkf_is(c, name, "partial_sum") || pkf_is(c, name, "lsum");
}

static bool final_name(pkf_ctx *c, TSNode name) {
  return pkf_is(c, name, "final") || pkf_is(c, name, "last_pass") ||
         pkf_is(c, name, "is_final") || pkf_is(c, name, "final_pass");
}

static int index_count(pkf_ctx *c, pki_func *f, const pkf_param *ps, int n, int k,
                       call_sites cs) {
  int nint = 0, nfree = 0;
  while (k + nint < n && is_int_ann(c, ps[k + nint].ann) && !pkf_is_acc(c, ps[k + nint].ann))
    nint++; /* (pk.Max[int] is an int annotation too: an accumulator ends the run) */
  while (k + nfree < n && (ts_node_is_null(ps[k + nfree].ann) || is_int_ann(c, ps[k + nfree].ann)))
    nfree++;
  if (c->spec && c->spec->rank > 1 && !strcmp(c->spec->kernel, f->name) &&
      nfree >= c->spec->rank)
    return c->spec->rank; /* the launch's MDRangePolicy (a kernel launched from another file) */
  if (cs.rank > 1 && nfree >= cs.rank && nint < cs.rank)
    return cs.rank; /* unannotated MDRange indices: the policy says how many */
  if (cs.rank < 0) /* an MDRangePolicy whose rank only the call knows: the int-annotated
                       parameters in front are its indices */
    return nint >= 2 ? nint : 1;
  if (nint <= 1)
    return 1;
  if (k + nint < n && !ts_node_is_null(ps[k + nint].ann) && pkf_is_acc(c, ps[k + nint].ann))
    return nint;
  int r = cs.rank;
  if (r < 1 && cs.nsites && !cs.opaque) {
    /* the policy is made elsewhere (a helper's return, self.policy): an int
     * parameter that no call passes by keyword is a work index, as PyKokkos
     * finds from the policy at the call (a scalar would be missing there) */
    r = 1;
    while (r < nint && r < MAX_MD && !passed_by_keyword(c, f->name, ps[k + r].name))
      r++;
    return r;
  }
  return r < 1 ? 1 : r > nint ? nint : r;
}

int pkf_workunit_head(pkf_ctx *c, pki_func *f, TSNode def, const pkf_param *ps, int n, int k) {
  if (k >= n)
    return k;
  call_sites cs = call_site_info(c, f->name);
  const pkf_param *ix = &ps[k];
  bool unannotated_team =
      ts_node_is_null(ix->ann) &&
      (cs.team || used_as_member(c, pkf_field(c, def, PKF_F_BODY), ix->name, 0));
  if (unannotated_team || (!ts_node_is_null(ix->ann) && pkf_is_team_member(c, ix->ann))) {
    pki_type t = pki_void_type;
    t.kind = PKI_TEAM_MEMBER;
    pki_func_add_index(c->m, f, head_var(c, ix, PKI_VAR_INDEX, t));
    f->policy = PKI_POLICY_TEAM;
    k++;
  } else {
    if (!ts_node_is_null(ix->ann) && !is_int_ann(c, ix->ann))
      pki_error(c->d, pkf_span(ix->ann), "bad-signature",
                "the work index '%s' must be annotated 'int' (or 'pk.TeamMember' for a "
                "TeamPolicy workunit)", pkf_text(c, ix->name));
    int nidx = index_count(c, f, ps, n, k, cs);
    if (nidx > MAX_MD)
      pki_error(c->d, pkf_span(ps[k + MAX_MD].node), "bad-signature",
                "workunit '%s' has %d work indices; MDRangePolicy supports 2 to %d "
                "dimensions", f->name, nidx, MAX_MD);
    for (int i = 0; i < nidx; i++)
      pki_func_add_index(c->m, f, head_var(c, &ps[k + i], PKI_VAR_INDEX, pki_int_type));
    f->policy = nidx > 1 ? PKI_POLICY_MDRANGE : PKI_POLICY_RANGE;
    k += nidx;
  }
  pki_reducer r = PKI_REDUCER_SUM;
  bool annotated = k < n && !ts_node_is_null(ps[k].ann) && pkf_acc_reducer(c, ps[k].ann, &r);
  bool implied = k < n && ts_node_is_null(ps[k].ann) &&
                 (cs.pattern == PKI_PATTERN_REDUCE || cs.pattern == PKI_PATTERN_SCAN ||
                  (cs.pattern < 0 && acc_name(c, ps[k].name)));
  if (!annotated && !implied)
    return k;
  pki_type t = annotated ? pki_void_type : pki_float_type; /* PyKokkos' default: double */
  if (annotated)
    pkf_type(c, ps[k].ann, false, &t);
  if (r == PKI_REDUCER_SUM && (cs.reducer == -3 || (cs.reducer == -1 && !cs.nsites))) {
    /* launched through a helper (reducer=reducer) or from another file */
    int b = pkf_reducer_from_body(c, def, pkf_text(c, ps[k].name));
    if (b >= 0)
      r = (pki_reducer)b;
  }
  if (cs.reducer == -2) {
    pki_error(c->d, pkf_span(cs.reducer_at), "unsupported-reducer",
              "reducer=%s: pkc's reductions are pk.Sum, pk.Prod, pk.Min, pk.Max, pk.MaxLoc, "
              "pk.MinLoc, pk.BAnd, pk.BOr, pk.LAnd, pk.LOr, pk.MinMax and pk.MinMaxLoc",
              pkf_text(c, cs.reducer_at));
  } else if (cs.reducer >= 0 && r == PKI_REDUCER_SUM) { /* pk.Acc: the launch chooses */
    r = (pki_reducer)cs.reducer;
  } else if (cs.reducer >= 0 && (int)r != cs.reducer) {
    pki_error(c->d, pkf_span(cs.reducer_at), "bad-reducer",
              "reducer=%s differs from the accumulator's annotation of '%s'; annotate it "
              "pk.Acc[...] to let the launch choose, or drop reducer=",
              pkf_text(c, cs.reducer_at), f->name);
  }
  f->acc = head_var(c, &ps[k], PKI_VAR_ACC, t);
  f->reducer = r;
  f->pattern = PKI_PATTERN_REDUCE;
  k++;
  /* a scan's final flag: annotated bool, or unannotated where the call sites
   * run a scan (or, without call sites, by its name) */
  if (k < n && (ts_node_is_null(ps[k].ann) ? cs.pattern == PKI_PATTERN_SCAN ||
                                                 (cs.pattern < 0 && final_name(c, ps[k].name))
                                           : pkf_is(c, pkf_unwrap_type(c, ps[k].ann), "bool"))) {
    f->final = head_var(c, &ps[k], PKI_VAR_FINAL, pki_bool_type);
    f->pattern = PKI_PATTERN_SCAN;
    k++;
  }
  return k;
}

/* ------------------------------------------------------------ ownership */

static bool in_list(pki_var **v, int n, const pki_var *x) {
  for (int i = 0; i < n; i++)
    if (v[i] == x)
      return true;
  return false;
}

bool pkf_own_var(pkf_ctx *c, pki_var *v) {
  pki_func *f = c->fn;
  if (!f || !f->is_closure)
    return true;
  return f->acc == v || f->final == v || in_list(f->index, f->nindex, v) ||
         in_list(f->params, f->nparams, v) || in_list(f->locals, f->nlocals, v);
}

bool pkf_is_nonlocal(pkf_ctx *c, pki_var *v) {
  for (pkf_nonlocal *p = c->nonlocals; p; p = p->next)
    if (p->v == v && p->fn == c->fn)
      return true;
  return false;
}

static pkf_ndef *find_ndef(pkf_ctx *c, TSNode name) {
  for (pkf_ndef *d = c->ndefs; d; d = d->next)
    if (pkf_is(c, name, d->name))
      return d;
  return NULL;
}

static bool in_team(pkf_ctx *c) {
  pki_func *r = pki_root_func(c->fn);
  return r && r->is_workunit && r->policy == PKI_POLICY_TEAM;
}

/* ------------------------------------------------------------- closures */

typedef struct shape {
  int pattern; /* pki_pattern, or -1 for pk.single */
  int nidx;
  pki_type acc; /* the result's type if known (reduce/scan) */
} shape;

static bool closure_index(pkf_ctx *c, pki_func *f, const pkf_param *p) {
  if (!ts_node_is_null(p->ann) && !is_int_ann(c, p->ann)) {
    pki_error(c->d, pkf_span(p->ann), "bad-signature",
              "the index parameter '%s' of nested function '%s' must be an int",
              pkf_text(c, p->name), f->name);
    return false;
  }
  pki_func_add_index(c->m, f, head_var(c, p, PKI_VAR_INDEX, pki_int_type));
  return true;
}

static bool closure_acc(pkf_ctx *c, pki_func *f, const pkf_param *p, pki_type want) {
  pki_type t = want;
  pki_reducer r = PKI_REDUCER_SUM;
  if (!ts_node_is_null(p->ann)) {
    if (!pkf_acc_reducer(c, p->ann, &r)) {
      pki_error(c->d, pkf_span(p->ann), "bad-signature",
                "the accumulator '%s' of nested function '%s' must be annotated pk.Acc[T]",
                pkf_text(c, p->name), f->name);
      return false;
    }
    if (!pkf_type(c, p->ann, false, &t))
      return false;
  } else if (t.kind == PKI_VOID) {
    t = pki_float_type;
  }
  f->acc = head_var(c, p, PKI_VAR_ACC, t);
  f->acc->annotated = !ts_node_is_null(p->ann);
  f->reducer = r;
  return true;
}

static bool closure_sig(pkf_ctx *c, pki_func *f, TSNode def, const shape *sh, TSNode at) {
  pkf_param *ps;
  int n = pkf_params(c, def, false, &ps);
  int want = sh->pattern < 0 ? 0 : sh->nidx + (sh->pattern == PKI_PATTERN_SCAN ? 2
                                              : sh->pattern == PKI_PATTERN_REDUCE ? 1 : 0);
  if (n != want) {
    pki_error(c->d, pkf_span(at), "bad-closure",
              "nested function '%s' takes %d parameter%s but this pattern passes %d "
              "(%s)", f->name, n, n == 1 ? "" : "s", want,
              sh->pattern < 0 ? "pk.single's function takes none"
              : sh->pattern == PKI_PATTERN_SCAN ? "index, acc, final"
              : sh->pattern == PKI_PATTERN_REDUCE ? "index, acc" : "the index");
    return false;
  }
  bool ok = true;
  for (int i = 0; i < sh->nidx && sh->pattern >= 0; i++)
    ok &= closure_index(c, f, &ps[i]);
  if (sh->pattern == PKI_PATTERN_REDUCE || sh->pattern == PKI_PATTERN_SCAN)
    ok &= closure_acc(c, f, &ps[sh->nidx], sh->acc);
  if (sh->pattern == PKI_PATTERN_SCAN)
    f->final = head_var(c, &ps[sh->nidx + 1], PKI_VAR_FINAL, pki_bool_type);
  return ok;
}

/* Lowers the nested def d as a closure of c->fn (once; later uses reuse it). */
static pki_func *lower_closure(pkf_ctx *c, pkf_ndef *d, const shape *sh, TSNode at) {
  if (d->fn)
    return d->fn;
  TSNode name = pkf_field(c, d->def, PKF_F_NAME);
  pki_func *f = pki_new_func(c->m, d->name, pkf_span(name));
  f->is_closure = true;
  f->pattern = sh->pattern < 0 ? PKI_PATTERN_FOR : sh->pattern;
  if (!closure_sig(c, f, d->def, sh, at))
    return NULL;
  pki_func_add_closure(c->m, c->fn, f);
  d->fn = f;
  pki_func *saved_fn = c->fn;
  int saved_loops = c->loops;
  pkf_nonlocal *saved_nl = c->nonlocals;
  c->fn = f;
  c->loops = 0;
  pkf_scope s;
  pkf_scope_push(c, &s, "def", f->span);
  for (int i = 0; i < f->nindex; i++)
    pkf_scope_bind(c, f->index[i]);
  if (f->acc)
    pkf_scope_bind(c, f->acc);
  if (f->final)
    pkf_scope_bind(c, f->final);
  pkf_lower_body(c, pkf_field(c, d->def, PKF_F_BODY), &f->body);
  pkf_scope_pop(c);
  c->fn = saved_fn;
  c->loops = saved_loops;
  c->nonlocals = saved_nl;
  return f;
}

/* ------------------------------------------------------ nested patterns */

static const struct {
  const char *name;
  pki_range range;
} ranges[] = {{"TeamThreadRange", PKI_RANGE_TEAM_THREAD},
              {"ThreadVectorRange", PKI_RANGE_THREAD_VECTOR},
              {"TeamVectorRange", PKI_RANGE_TEAM_VECTOR},
              {"TeamThreadMDRange", PKI_RANGE_TEAM_THREAD_MD},
              {"PerTeam", PKI_RANGE_PER_TEAM},
              {"PerThread", PKI_RANGE_PER_THREAD}};

static int range_of(pkf_ctx *c, TSNode n) {
  const char *nm = pk_call_name(c, n);
  for (size_t i = 0; nm && i < sizeof ranges / sizeof ranges[0]; i++)
    if (!strcmp(nm, ranges[i].name))
      return (int)ranges[i].range;
  return -1;
}

/* The team member argument: a pk.TeamMember variable. */
static pki_expr *member_arg(pkf_ctx *c, TSNode n, const char *what) {
  pki_expr *e = pkf_expr(c, n);
  if (!e)
    return NULL;
  if (e->kind != PKI_E_VAR ||
      (e->var->type.kind != PKI_VOID && e->var->type.kind != PKI_TEAM_MEMBER)) {
    pki_error(c->d, pkf_span(n), "bad-team-member",
              "the first argument of pk.%s must be the team member (the workunit's "
              "'m: pk.TeamMember' parameter)", what);
    return NULL;
  }
  return e;
}

static pki_expr *zero(pkf_ctx *c, TSNode at) { return pki_new_expr(c->m, PKI_E_INT, pkf_span(at)); }

/* Fills s->range and s->args from a range call; returns the index count. */
static int range_args(pkf_ctx *c, TSNode rn, pki_stmt *s, bool single) {
  int r = range_of(c, rn);
  bool per = r == PKI_RANGE_PER_TEAM || r == PKI_RANGE_PER_THREAD;
  if (r < 0 || per != single) {
    pki_error(c->d, pkf_span(rn), "bad-nested-range",
              single ? "pk.single takes pk.PerTeam(m) or pk.PerThread(m) as its first argument"
                     : "a nested pattern takes pk.TeamThreadRange(m, [begin,] end), "
                       "pk.ThreadVectorRange, pk.TeamVectorRange or pk.TeamThreadMDRange "
                       "as its first argument");
    return -1;
  }
  const char *nm = pk_call_name(c, rn);
  pkf_nodes a = pkf_children(c, pkf_field(c, rn, PKF_F_ARGUMENTS));
  int lo = per ? 1 : 2, hi = per ? 1 : r == PKI_RANGE_TEAM_THREAD_MD ? 1 + MAX_MD : 3;
  if (r == PKI_RANGE_TEAM_THREAD_MD)
    lo = 3;
  if ((int)a.n < lo || (int)a.n > hi) {
    pki_error(c->d, pkf_span(rn), "arity",
              "wrong number of arguments to 'pk.%s': expected %d to %d, got %u", nm, lo, hi, a.n);
    return -1;
  }
  s->range = r;
  int n = r == PKI_RANGE_TEAM_THREAD_MD ? (int)a.n : per ? 1 : 3;
  s->args = pki_alloc(c->m->arena, sizeof *s->args * (size_t)n);
  s->nargs = n;
  bool ok = (s->args[0] = member_arg(c, a.v[0], nm)) != NULL;
  if (r == PKI_RANGE_TEAM_THREAD_MD) {
    for (uint32_t i = 1; i < a.n; i++)
      ok &= (s->args[i] = pkf_expr(c, a.v[i])) != NULL;
  } else if (!per) {
    s->args[1] = a.n == 3 ? pkf_expr(c, a.v[1]) : zero(c, rn);
    s->args[2] = pkf_expr(c, a.v[a.n - 1]);
    ok &= s->args[1] && s->args[2];
  }
  if (!ok)
    return -1;
  return r == PKI_RANGE_TEAM_THREAD_MD ? (int)a.n - 1 : per ? 0 : 1;
}

/* pk.Sum / pk.Prod / pk.Max / pk.Min given as a nested reduction's third
 * argument: its pki_reducer, or -1. */
static int reducer_named(pkf_ctx *c, TSNode n) {
  if (!pkf_type_is(c, n, PKF_N_ATTRIBUTE) || !pkf_alias_is(c, pkf_field(c, n, PKF_F_OBJECT), PKF_AL_PK))
    return -1;
  TSNode a = pkf_field(c, n, PKF_F_ATTRIBUTE);
  return pkf_is(c, a, "Sum")    ? PKI_REDUCER_SUM
         : pkf_is(c, a, "Prod") ? PKI_REDUCER_PROD
         : pkf_is(c, a, "Min")  ? PKI_REDUCER_MIN
         : pkf_is(c, a, "Max")  ? PKI_REDUCER_MAX
                                : -1;
}

static const char *pattern_name(int p) {
  return p == PKI_PATTERN_REDUCE ? "parallel_reduce" : p == PKI_PATTERN_SCAN ? "parallel_scan"
                                                                           : "parallel_for";
}

/* pk.parallel_for/reduce/scan(range, fn) or pk.single(per, fn) inside a team
 * workunit; pattern -1 = single. NULL after an error. */
static pki_stmt *nested(pkf_ctx *c, TSNode call, int pattern, pki_type acc) {
  const char *what = pattern < 0 ? "single" : pattern_name(pattern);
  pkf_nodes a = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  if (!in_team(c)) {
    TSNode at = a.n && range_of(c, a.v[0]) >= 0 ? a.v[0] : call;
    const char *rn = a.n ? pk_call_name(c, a.v[0]) : NULL;
    pki_error(c->d, pkf_span(at), "outside-team",
              "pk.%s is only allowed inside a team workunit (whose work index is "
              "'m: pk.TeamMember'); launch this kernel with a pk.TeamPolicy",
              range_of(c, at) >= 0 && rn ? rn : what);
    return NULL;
  }
  int reducer = -1; /* pk.parallel_reduce(range, fn, pk.Max): the closure's own, repeated */
  if (pattern == PKI_PATTERN_REDUCE && a.n == 3 && (reducer = reducer_named(c, a.v[2])) >= 0)
    a.n = 2;
  for (uint32_t i = 0; i < a.n; i++)
    if (!pkf_type_is(c, a.v[i], PKF_N_IDENTIFIER) && !pkf_type_is(c, a.v[i], PKF_N_CALL)) {
      pki_error(c->d, pkf_span(a.v[i]), "bad-nested-pattern",
                "pk.%s in a team workunit takes two positional arguments: the range and "
                "the name of a nested def%s", what,
                pattern == PKI_PATTERN_REDUCE ? " (then, if given, the reducer: pk.Sum, "
                                                "pk.Prod, pk.Max or pk.Min)" : "");
      return NULL;
    }
  if (a.n != 2) {
    pki_error(c->d, pkf_span(call), "arity",
              "wrong number of arguments to 'pk.%s': expected 2 (range, nested def), got %u",
              what, a.n);
    return NULL;
  }
  pki_stmt *s = pki_new_stmt(c->m, pattern < 0 ? PKI_S_SINGLE : PKI_S_NESTED, pkf_span(call));
  s->pattern = pattern < 0 ? PKI_PATTERN_FOR : pattern;
  int nidx = range_args(c, a.v[0], s, pattern < 0);
  if (nidx < 0)
    return NULL;
  pkf_ndef *d = pkf_type_is(c, a.v[1], PKF_N_IDENTIFIER) ? find_ndef(c, a.v[1]) : NULL;
  if (!d) {
    pki_error(c->d, pkf_span(a.v[1]), "bad-nested-pattern",
              "'%s' is not a nested function: pk.%s in a team workunit needs the name of a "
              "'def' written inside this kernel before the call", pkf_text(c, a.v[1]), what);
    return NULL;
  }
  shape sh = {pattern, nidx, acc};
  s->closure = lower_closure(c, d, &sh, call);
  if (s->closure && reducer >= 0 && s->closure->acc && (int)s->closure->reducer != reducer) {
    static const char *const names[] = {"pk.Sum (pk.Acc)", "pk.Prod", "pk.Min", "pk.Max",
                                        "pk.MaxLoc", "pk.MinLoc"};
    pki_error(c->d, pkf_span(a.v[1] /* the def */), "bad-nested-pattern",
              "'%s' accumulates with %s but the reduction names %s; annotate the "
              "accumulator with the reducer you mean (e.g. 'acc: pk.Max[pk.double]')",
              s->closure->name, names[s->closure->reducer], names[reducer]);
    return NULL;
  }
  return s->closure ? s : NULL;
}

static int pattern_of(pkf_ctx *c, TSNode call) {
  const char *nm = pk_call_name(c, call);
  if (!nm)
    return -2;
  if (!strcmp(nm, "parallel_for"))
    return PKI_PATTERN_FOR;
  if (!strcmp(nm, "parallel_reduce"))
    return PKI_PATTERN_REDUCE;
  if (!strcmp(nm, "parallel_scan"))
    return PKI_PATTERN_SCAN;
  if (!strcmp(nm, "single"))
    return -1;
  return -2;
}

static pki_var *declare(pkf_ctx *c, TSNode name, pki_type t, bool annotated) {
  pki_var *v = pki_new_var(c->m, pkf_text(c, name), PKI_VAR_LOCAL, t, pkf_span(name));
  v->annotated = annotated;
  pki_func_add_local(c->m, c->fn, v);
  pkf_scope_bind(c, v);
  return v;
}

bool pkf_nested_assign(pkf_ctx *c, TSNode n, TSNode left, TSNode ann, TSNode right,
                       pki_block *out) {
  int p = c->host ? -2 : pattern_of(c, right);
  if (p < 0)
    return false;
  if (!pkf_type_is(c, left, PKF_N_IDENTIFIER)) {
    pki_error(c->d, pkf_span(left), "unsupported-statement",
              "the result of pk.%s must be assigned to a plain name", pattern_name(p));
    return true;
  }
  uint32_t s0 = ts_node_start_byte(left);
  pki_var *old = pkf_lookup(c, c->src + s0, ts_node_end_byte(left) - s0);
  pki_type t = pki_void_type;
  if (!ts_node_is_null(ann)) {
    if (old) {
      pki_error(c->d, pkf_span(left), "redeclaration",
                "'%s' is already declared at %u:%u; assign to it without an annotation",
                old->name, old->span.line, old->span.col);
      return true;
    }
    if (!pkf_type(c, ann, false, &t))
      return true;
  } else if (old) {
    t = old->type;
  }
  pki_expr *tgt = NULL;
  if (old && ts_node_is_null(ann) && !(tgt = pkf_target(c, left)))
    return true;
  pki_stmt *s = nested(c, right, p, t);
  if (s && pki_reducer_has_fields(s->closure->reducer)) {
    pki_error(c->d, s->span, "unsupported-reducer",
              "MaxLoc/MinLoc/MinMax/MinMaxLoc reductions run from Python (pk.parallel_reduce "
              "in host code), not from @pk.main or inside a team workunit; reduce the value "
              "with pk.Max / pk.Min, then find its index in a second nested reduction");
    s = NULL;
  }
  if (!s) {
    if (!old)
      pkf_scope_reject(c, left); /* its uses (res.loc too): no second error */
    return true;
  }
  if (!tgt) {
    pki_stmt *d = pki_new_stmt(c->m, PKI_S_DECL, pkf_span(n));
    bool annotated = !ts_node_is_null(ann);
    d->var = declare(c, left, annotated ? t : s->closure->acc ? s->closure->acc->type : t,
                     annotated);
    pki_block_push(c->m->arena, out, d);
    tgt = pki_new_expr(c->m, PKI_E_VAR, pkf_span(left));
    tgt->var = d->var;
  }
  s->target = tgt;
  pki_block_push(c->m->arena, out, s);
  return true;
}

/* ------------------------------------------------------ statement hooks */

static void nested_def(pkf_ctx *c, TSNode def) {
  TSNode name = pkf_field(c, def, PKF_F_NAME);
  uint32_t s0 = ts_node_start_byte(name);
  pki_var *old = pkf_lookup(c, c->src + s0, ts_node_end_byte(name) - s0);
  if (old) {
    pki_error(c->d, pkf_span(name), "redeclaration",
              "nested function '%s' reuses the name of a variable declared at %u:%u",
              old->name, old->span.line, old->span.col);
    return;
  }
  pkf_ndef *d = pki_alloc(c->m->arena, sizeof *d);
  d->name = pkf_text(c, name);
  d->def = def;
  d->scope = c->scope;
  d->next = c->ndefs;
  c->ndefs = d;
}

static void nonlocal_stmt(pkf_ctx *c, TSNode n) {
  if (!c->fn->is_closure) {
    pki_error(c->d, pkf_span(n), "unsupported-statement",
              "'nonlocal' is only meaningful inside a nested def of a team workunit");
    return;
  }
  pkf_nodes ns = pkf_children(c, n);
  for (uint32_t i = 0; i < ns.n; i++) {
    uint32_t s0 = ts_node_start_byte(ns.v[i]);
    pki_var *v = pkf_lookup(c, c->src + s0, ts_node_end_byte(ns.v[i]) - s0);
    if (!v || pkf_own_var(c, v)) {
      pki_error(c->d, pkf_span(ns.v[i]), "bad-nonlocal",
                "nonlocal '%s' does not name a variable of an enclosing function",
                pkf_text(c, ns.v[i]));
      continue;
    }
    pkf_nonlocal *p = pki_alloc(c->m->arena, sizeof *p);
    p->v = v;
    p->fn = c->fn;
    p->next = c->nonlocals;
    c->nonlocals = p;
  }
}

/* Statements of kernel bodies only (not @pk.main's host code). */
static bool kernel_body(const pkf_ctx *c) { return !c->host && c->fn; }

bool pkf_kernel_def(pkf_ctx *c, TSNode n, pki_block *out) {
  if (!kernel_body(c) || !in_team(c))
    return false;
  nested_def(c, n);
  return true;
}

bool pkf_kernel_nonlocal(pkf_ctx *c, TSNode n, pki_block *out) {
  if (!kernel_body(c))
    return false;
  nonlocal_stmt(c, n);
  return true;
}

bool pkf_kernel_pattern(pkf_ctx *c, TSNode n, pki_block *out) {
  if (!kernel_body(c) || pkf_named_child_count(c, n) != 1)
    return false;
  TSNode x = pkf_named_child(c, n, 0);
  int p = pattern_of(c, x);
  if (p < -1)
    return false;
  pki_stmt *s = nested(c, x, p, pki_void_type);
  if (s)
    pki_block_push(c->m->arena, out, s);
  return true;
}
