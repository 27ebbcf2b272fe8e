/*
 * check_par.c - parallel statements for pki_check: nested patterns inside
 * team workunits (PKI_S_NESTED), pk.single (PKI_S_SINGLE) and the
 * dispatches of a workload's @pk.main (PKI_S_DISPATCH), with their closures.
 */
#include "check_priv.h"

static const char *tstr(pki_ck *c, pki_type t) { return pki_type_str(c->m->arena, t); }

static const char *pattern_fn(int p) {
  static const char *const n[] = {"pk.parallel_for", "pk.parallel_reduce", "pk.parallel_scan"};
  return n[(unsigned)p % 3];
}

static const char *range_name(int r) {
  static const char *const n[] = {"pk.TeamThreadRange", "pk.ThreadVectorRange",
                                  "pk.TeamVectorRange", "pk.TeamThreadMDRange",
                                  "pk.PerTeam",         "pk.PerThread"};
  return (unsigned)r < 6 ? n[r] : "range";
}

static const char *policy_name(int p) {
  static const char *const n[] = {"pk.RangePolicy", "pk.MDRangePolicy", "pk.TeamPolicy"};
  return n[(unsigned)p % 3];
}

static const char *policy_kind(int p) {
  static const char *const n[] = {"range", "MDRange", "team"};
  return n[(unsigned)p % 3];
}

static pki_expr *ck_int(pki_ck *c, pki_expr *e, const char *what) {
  e = pki_ck_expr(c, e);
  if (!e || e->type.kind == PKI_VOID)
    return e;
  if (pki_is_float(e->type.kind)) {
    pki_warning(c->d, e->span, "implicit-conversion",
                "implicit conversion: %s is %s, truncated toward zero as in C++; write "
                "int(...) to make it explicit", what, tstr(c, e->type));
  } else if (e->type.kind != PKI_BOOL && !pki_is_int(e->type.kind)) {
    pki_error(c->d, e->span, "type-mismatch", "%s must be an integer, got %s", what,
              tstr(c, e->type));
    return e;
  }
  return pki_ck_conv(c, e, pki_int_type);
}

/* args[0] of NESTED/SINGLE: the workunit's pk.TeamMember. */
static bool ck_member(pki_ck *c, pki_stmt *s, const char *what) {
  pki_expr *m = s->nargs > 0 ? s->args[0] : NULL;
  if (m)
    s->args[0] = m = pki_ck_expr(c, m);
  if (m && m->type.kind == PKI_VOID)
    return false;
  if (!m || m->type.kind != PKI_TEAM_MEMBER) {
    pki_error(c->d, m ? m->span : s->span, "team-member",
              "%s(...) needs the pk.TeamMember as its first argument", what);
    return false;
  }
  return true;
}

/* The closure's accumulator type (inferred from the target if unannotated). */
static bool ck_acc(pki_ck *c, pki_stmt *s, pki_func *g) {
  const char *fn = pattern_fn(s->pattern);
  if (pki_reducer_has_fields(g->reducer)) {
    pki_error(c->d, s->span, "unsupported-reducer",
              "MaxLoc/MinLoc/MinMax/MinMaxLoc reductions run from Python (pk.parallel_reduce in host code), "
              "not from @pk.main or inside a team workunit");
    return false;
  }
  if (s->pattern == PKI_PATTERN_FOR) {
    if (g->acc)
      pki_error(c->d, g->acc->span, "bad-closure",
                "the function passed to pk.parallel_for takes no accumulator");
    if (s->target)
      pki_error(c->d, s->target->span, "bad-closure", "pk.parallel_for returns no value");
    return false;
  }
  if (!g->acc) {
    pki_error(c->d, g->span, "bad-closure",
              "the function passed to %s needs an accumulator parameter: "
              "def %s(j: int, acc: pk.Acc[pk.double]%s)",
              fn, g->name, s->pattern == PKI_PATTERN_SCAN ? ", final: bool" : "");
    return false;
  }
  pki_type *t = &g->acc->type;
  if (t->kind == PKI_VOID && s->target && s->target->kind == PKI_E_VAR && s->target->var &&
      pki_is_numeric(s->target->var->type.kind))
    *t = s->target->var->type;
  if (t->kind == PKI_VOID) {
    pki_error(c->d, g->acc->span, "cannot-infer",
              "cannot infer the type of accumulator '%s'; annotate it: %s: pk.Acc[pk.double]",
              g->acc->name, g->acc->name);
    return false;
  }
  if (!pki_is_numeric(t->kind) || t->kind == PKI_BOOL) {
    pki_error(c->d, g->acc->span, "bad-closure", "accumulator '%s' must be a number, not %s",
              g->acc->name, tstr(c, *t));
    return false;
  }
  return true;
}

/* The variable/member/element receiving a reduction's or scan's result. */
static void ck_target(pki_ck *c, pki_stmt *s, pki_type acc) {
  pki_expr *t = s->target;
  if (!t)
    return;
  if (t->kind == PKI_E_VAR && t->var && t->var->kind == PKI_VAR_LOCAL &&
      t->var->type.kind == PKI_VOID)
    t->var->type = pki_is_int(acc.kind) && acc.kind != PKI_U64 ? pki_int_type : acc;
  if (!pki_ck_target(c, t, PKI_ACCESS_WRITE))
    return;
  pki_ck_fit fit = pki_ck_fits(acc, t->type);
  if (fit == PKI_CK_FLOAT_TO_INT)
    pki_warning(c->d, t->span, "implicit-conversion",
                "implicit conversion: the %s result of %s is stored %s, truncated toward "
                "zero as in C++; declare it as a float or write int(...)",
                tstr(c, acc), pattern_fn(s->pattern), pki_ck_place(c, t));
  else if (fit == PKI_CK_MISMATCH)
    pki_error(c->d, t->span, "type-mismatch", "cannot assign the %s result of %s %s",
              tstr(c, acc), pattern_fn(s->pattern), pki_ck_place(c, t));
}

/* --------------------------------------------------------------- nested */

static bool ck_nested_bounds(pki_ck *c, pki_stmt *s, pki_func *g) {
  for (int i = 1; i < s->nargs; i++)
    if (s->args[i])
      s->args[i] = ck_int(c, s->args[i], "a range bound");
  const char *rn = range_name(s->range);
  if (s->range == PKI_RANGE_TEAM_THREAD_MD) {
    int n = s->nargs - 1;
    if (n < 2 || n > 6 || g->nindex != n) {
      pki_error(c->d, s->span, "bad-closure",
                "%s with %d extent%s needs a function of %d int parameter%s; '%s' takes %d",
                rn, n, n == 1 ? "" : "s", n, n == 1 ? "" : "s", g->name, g->nindex);
      return false;
    }
  } else if (s->nargs < 2 || s->nargs > 3 || !s->args[s->nargs - 1]) {
    pki_error(c->d, s->span, "bad-range", "%s(m, [begin,] end) needs an end", rn);
    return false;
  } else if (g->nindex != 1) {
    pki_error(c->d, g->span, "bad-closure",
              "the function passed to %s over %s takes one index parameter first; '%s' "
              "takes %d",
              pattern_fn(s->pattern), rn, g->name, g->nindex);
    return false;
  }
  return true;
}

void pki_ck_nested(pki_ck *c, pki_stmt *s) {
  const char *rn = range_name(s->range);
  pki_func *g = s->closure;
  if (!pki_ck_in_team(c)) {
    pki_error(c->d, s->span, "team-only",
              "%s can only be used inside a TeamPolicy workunit (def k(m: pk.TeamMember, ...))",
              rn);
    return;
  }
  if (s->range > PKI_RANGE_TEAM_THREAD_MD) {
    pki_error(c->d, s->span, "bad-range", "%s is for pk.single, not %s", rn,
              pattern_fn(s->pattern));
    return;
  }
  bool ok = ck_member(c, s, rn);
  if (!g) {
    pki_error(c->d, s->span, "bad-closure", "%s needs a function to run", pattern_fn(s->pattern));
    return;
  }
  g->pattern = s->pattern;
  ok = ck_nested_bounds(c, s, g) && ok;
  bool acc_ok = ck_acc(c, s, g);
  pki_ck_closure(c, g);
  if (s->pattern == PKI_PATTERN_SCAN && s->target) {
    pki_error(c->d, s->target->span, "unsupported-expression",
              "the total of a nested pk.parallel_scan is not available (Kokkos 3.4 has no "
              "team-level scan total); call it as a statement and compute the total with a "
              "nested pk.parallel_reduce");
    return;
  }
  if (ok && acc_ok)
    ck_target(c, s, g->acc->type);
}

void pki_ck_single(pki_ck *c, pki_stmt *s) {
  pki_func *g = s->closure;
  if (!pki_ck_in_team(c)) {
    pki_error(c->d, s->span, "team-only",
              "pk.single can only be used inside a TeamPolicy workunit");
    return;
  }
  if (s->range != PKI_RANGE_PER_TEAM && s->range != PKI_RANGE_PER_THREAD) {
    pki_error(c->d, s->span, "bad-range", "pk.single takes pk.PerTeam(m) or pk.PerThread(m)");
    return;
  }
  ck_member(c, s, range_name(s->range));
  if (!g) {
    pki_error(c->d, s->span, "bad-closure", "pk.single needs a function to run");
    return;
  }
  if (g->nindex || g->acc || g->nparams)
    pki_error(c->d, g->span, "bad-closure",
              "the function passed to pk.single takes no parameters: def %s():", g->name);
  g->pattern = PKI_PATTERN_FOR;
  pki_ck_closure(c, g);
}

/* -------------------------------------------------------------- dispatch */

static bool ck_md_list(pki_ck *c, pki_expr *l, int n) {
  if (!l)
    return true; /* optional tile */
  if (l->kind != PKI_E_LIST) {
    pki_ck_expr(c, l);
    pki_error(c->d, l->span, "bad-policy",
              "pk.MDRangePolicy takes lists of bounds: pk.MDRangePolicy([0, 0], [n, m])");
    return false;
  }
  for (int i = 0; i < l->nargs; i++)
    l->args[i] = ck_int(c, l->args[i], "an MDRangePolicy bound");
  l->type = pki_array_type(PKI_I64, l->nargs);
  if (l->nargs != n) {
    pki_error(c->d, l->span, "bad-policy",
              "this MDRangePolicy list has %d entr%s but the workunit takes %d indices", l->nargs,
              l->nargs == 1 ? "y" : "ies", n);
    return false;
  }
  return true;
}

static void ck_policy_args(pki_ck *c, pki_stmt *s, pki_func *g) {
  if (s->range == PKI_POLICY_MDRANGE) {
    for (int i = 0; i < s->nargs; i++)
      ck_md_list(c, s->args[i], g->nindex);
    if (s->nargs < 2)
      pki_error(c->d, s->span, "bad-policy", "pk.MDRangePolicy needs begin and end lists");
    return;
  }
  for (int i = 0; i < s->nargs; i++)
    if (s->args[i])
      s->args[i] = ck_int(c, s->args[i], "a policy argument");
}

/* The dispatched function: a workunit of this workload, or a lambda. */
static bool ck_dispatched(pki_ck *c, pki_stmt *s, pki_func *g) {
  pki_func *r = pki_root_func(c->f);
  if (g->is_closure) {
    g->pattern = s->pattern;
    g->policy = s->range;
    return true;
  }
  if (!g->is_workunit || g->owner != r->owner) {
    pki_error(c->d, s->span, "bad-dispatch", "'%s' is not a @pk.workunit of '%s'", g->name,
              r->owner ? r->owner->name : "?");
    return false;
  }
  if ((int)g->pattern != s->pattern) {
    pki_error(c->d, s->span, "bad-dispatch",
              "%s needs a %s workunit, but '%s' is a %s workunit%s", pattern_fn(s->pattern),
              s->pattern == PKI_PATTERN_REDUCE ? "reduce" : s->pattern == PKI_PATTERN_SCAN ? "scan" : "for",
              g->name,
              g->pattern == PKI_PATTERN_REDUCE ? "reduce" : g->pattern == PKI_PATTERN_SCAN ? "scan" : "for",
              s->pattern == PKI_PATTERN_FOR ? "" : " (give it an accumulator: acc: pk.Acc[...])");
    return false;
  }
  if ((int)g->policy != s->range) {
    pki_error(c->d, s->span, "bad-dispatch", "'%s' is a %s workunit; dispatch it with %s(...)",
              g->name, policy_kind(g->policy), policy_name(g->policy));
    return false;
  }
  return true;
}

void pki_ck_dispatch(pki_ck *c, pki_stmt *s) {
  pki_func *g = s->closure;
  if (!pki_ck_in_main(c)) {
    pki_error(c->d, s->span, "bad-dispatch",
              "%s with a policy can only be used in a workload's @pk.main; inside a team "
              "workunit use pk.TeamThreadRange",
              pattern_fn(s->pattern));
    return;
  }
  if (!g) {
    pki_error(c->d, s->span, "bad-dispatch", "%s needs a workunit to run",
              pattern_fn(s->pattern));
    return;
  }
  if (!ck_dispatched(c, s, g))
    return;
  for (int level = 0; level < 2; level++)
    for (int th = 0; th < 2; th++)
      if (s->scratch[level][th])
        s->scratch[level][th] = ck_int(c, s->scratch[level][th], "a scratch size");
  if (g->policy == PKI_POLICY_TEAM)
    for (int level = 0; level < 2; level++)
      for (int th = 0; th < 2; th++)
        if (pki_uses_scratch(&g->body, level, th) && !s->scratch[level][0] &&
            !s->scratch[level][1]) {
          pki_error(c->d, s->span, "missing-scratch-size",
                    "'%s' uses %s scratch level %d, but this dispatch sets no scratch size; "
                    "use pk.TeamPolicy(...).set_scratch_size(%d, pk.PerTeam(bytes))",
                    g->name, th ? "thread" : "team", level, level);
          return;
        }
  ck_policy_args(c, s, g);
  bool acc_ok = ck_acc(c, s, g);
  if (g->is_closure)
    pki_ck_closure(c, g);
  if (acc_ok)
    ck_target(c, s, g->acc->type);
}
