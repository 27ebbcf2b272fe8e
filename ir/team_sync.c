/*
 * team_sync.c - pki_team_sync: team code that is right on CPUs (teams of one
 * or two threads) and wrong on GPUs, found and fixed at compile time
 * (docs/DIALECT.md, "Team synchronization"; issue 23).
 *
 *  1. divergent collectives: a nested pattern over TeamThreadRange /
 *     TeamVectorRange or a team_barrier() under a condition that depends on
 *     team_rank() (or a thread-private value) is hoisted out of the `if`
 *     when its inputs do not depend on the branch (note "team-hoist"), else
 *     rejected (error "divergent-collective");
 *  2. missing barriers: after a statement that writes elements of a team's
 *     View (below), a team_barrier() goes before the first statement that
 *     may read an element another thread wrote, and before a store that may
 *     overwrite an element another thread read since the last barrier
 *     (note "team-barrier");
 *  3. scatters: a Range/MDRange kernel writing a View element at an index
 *     that is not injective in its work index, without an atomic (warning
 *     "possible-race"; `# pkc: allow possible-race` on the line or on the
 *     kernel's def opts out); in a nested parallel_for's closure, a write of
 *     one element for all iterations or an update through an index read
 *     from a View; an update of one element by every iteration (an index of
 *     literals and team-wide values) is made atomic instead, and so is a
 *     team scratch update through an index read from a View (note
 *     "team-atomic"), and an update of a View at the league rank plus an
 *     index that changes over the iterations (out[r + k]: neighbouring
 *     teams meet), where a plain store warns;
 *  4. partial values: a scalar assigned by some threads only (one branch of
 *     a per-thread `if`, pk.single(PerTeam), a team-range closure's
 *     nonlocal) and then read by every thread: broadcast from team rank 0
 *     when only rank 0 assigned it (note "team-broadcast"), else warning
 *     "team-partial-value";
 *  5. a team_barrier() or team-range pattern inside a nested pattern's
 *     closure (error "collective-in-closure").
 * What differs between threads is a forward flow over the body (a uniform
 * reassignment makes a value the same on every thread again).
 * Rule 2 counts as writers every statement that stores to a shared View
 * (nested parallel_for over a team range, a per-thread `if` or loop,
 * pk.single, a store at a per-thread index, a scan's final pass), and
 * checks the conditions and bounds of uniform branches and loops as reads.
 *
 * Rules 1, 2, 3 (team scratch) and 4 rewrite the team workunit's body
 * (statements only; the backends emit what they find); every walk over nodes
 * goes through the visitor (visit.c); the loops over a block's statements
 * here only find where to insert.
 */
#include <string.h>

#include "access.h"
#include "ir.h"

typedef struct ts_ctx {
  pki_module *m;
  pki_diags *d;
  pki_func *root;   /* the team workunit */
  pki_var *member;  /* its pk.TeamMember */
  pki_vec tainted;  /* pki_var *: values that differ between threads somewhere */
  pki_vec private_views; /* pki_var *: thread scratch Views (each thread its own) */
  pki_vec snaps;    /* ts_snap *: what differs before each statement (taint below) */
  pki_vec changing; /* pki_var *: assigned again after they are set (find_changing) */
  pki_vec rank_vars; /* pki_var *: declared as m.team_rank() (find_changing) */
  pki_vec league_vars; /* pki_var *: declared as m.league_rank() (find_changing) */
  bool exits;       /* some threads may leave early (find_exits): no broadcasts */
} ts_ctx;

/* ------------------------------------------------------------ var sets */

static bool add(pki_arena *a, pki_vec *v, const void *x) {
  if (!x || pki_vec_has(v, x))
    return false;
  pki_vec_push(a, v, (void *)x);
  return true;
}

static void merge(pki_arena *a, pki_vec *into, const pki_vec *from) {
  for (int i = 0; i < from->n; i++)
    add(a, into, from->items[i]);
}

static bool meets(const pki_vec *a, const pki_vec *b) {
  for (int i = 0; i < a->n; i++)
    if (pki_vec_has(b, a->items[i]))
      return true;
  return false;
}

/* The variable an assignment target or View operand names (y in y[i][j]). */
static const pki_var *root_var(const pki_expr *e) {
  while (e && (e->kind == PKI_E_INDEX || e->kind == PKI_E_CAST) && e->nargs > 0)
    e = e->args[0];
  return e && (e->kind == PKI_E_VAR || e->kind == PKI_E_FIELD) ? e->var : NULL;
}

static bool is_intr(const pki_expr *e, pki_intrinsic k) {
  return e && e->kind == PKI_E_INTRINSIC && e->intrinsic == k;
}

static bool is_atomic(pki_intrinsic k) {
  return k >= PKI_INTRINSIC_ATOMIC_FETCH_ADD && k <= PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE;
}

/* ------------------------------------------- what a piece of IR touches */

typedef struct ts_use {
  pki_arena *a;
  pki_vec refs;   /* every variable named */
  pki_vec writes; /* variables and Views stored to (declared with a value, assigned,
                     indexed targets, atomics, Views passed to calls) */
  bool calls, effects; /* calls; atomics/random draws */
} ts_use;

static void use_expr(pki_visitor *v, const pki_expr *e) {
  ts_use *u = v->data;
  if (e->kind == PKI_E_VAR || e->kind == PKI_E_FIELD)
    add(u->a, &u->refs, e->var);
  if (e->kind == PKI_E_CALL) {
    u->calls = true;
    for (int i = 0; i < e->nargs; i++)
      if (e->args[i] && e->args[i]->type.kind != PKI_BOOL && !pki_is_numeric(e->args[i]->type.kind))
        add(u->a, &u->writes, root_var(e->args[i]));
  }
  if (e->kind == PKI_E_INTRINSIC && is_atomic(e->intrinsic) && e->nargs > 0) {
    add(u->a, &u->writes, root_var(e->args[0]));
    u->effects = true;
  }
  if (e->kind == PKI_E_INTRINSIC && e->intrinsic >= PKI_INTRINSIC_POOL_GET_STATE &&
      e->intrinsic <= PKI_INTRINSIC_RAND_NORMAL)
    u->effects = true;
}

static void use_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_use *u = v->data;
  if ((s->kind == PKI_S_DECL && s->value) || s->kind == PKI_S_FOR)
    add(u->a, &u->writes, s->var);
  if (s->kind == PKI_S_DECL)
    add(u->a, &u->refs, s->var);
  if (s->target && s->kind != PKI_S_DISPATCH)
    add(u->a, &u->writes, root_var(s->target));
}

/* What statements b[from..to) touch, closures included. */
static ts_use uses_of(pki_arena *a, const pki_block *b, int from, int to) {
  ts_use u = {.a = a};
  pki_visitor v = {.expr = use_expr, .stmt = use_stmt, .closures = true, .data = &u};
  for (int i = from; i < to && i < b->n; i++)
    pki_visit_stmt(&v, b->stmts[i]);
  return u;
}

static ts_use uses_of_expr(pki_arena *a, const pki_expr *e) {
  ts_use u = {.a = a};
  pki_visitor v = {.expr = use_expr, .stmt = use_stmt, .closures = true, .data = &u};
  pki_visit_expr(&v, e);
  return u;
}

/* Whether statements b[from..to) may leave the code after them: a return
 * (when rets), or a break/continue of a loop around b (in_loop false) rather
 * than of a loop inside it. (Which loop a break ends is structure, not a
 * node: the visitor does not say it.) */
static bool leaves(const pki_block *b, int from, int to, bool in_loop, bool rets) {
  for (int i = from; i < to && i < b->n; i++) {
    const pki_stmt *s = b->stmts[i];
    if ((rets && s->kind == PKI_S_RETURN) ||
        (!in_loop && (s->kind == PKI_S_BREAK || s->kind == PKI_S_CONTINUE)))
      return true;
    bool loop = s->kind == PKI_S_FOR || s->kind == PKI_S_WHILE;
    if (leaves(&s->body, 0, s->body.n, in_loop || loop, rets) ||
        leaves(&s->orelse, 0, s->orelse.n, in_loop, rets))
      return true;
  }
  return false;
}

static bool team_range(int r) {
  return r == PKI_RANGE_TEAM_THREAD || r == PKI_RANGE_TEAM_VECTOR || r == PKI_RANGE_TEAM_THREAD_MD;
}

/* ------------------------------------------------------------- taint */

/* Which scalars differ between the threads of a team is a forward flow over
 * the body: `t = <uniform value>` makes t the same on every thread again
 * (a team reduce's result, say, after a rank-0 branch set t), a per-thread
 * branch or loop makes whatever it assigns differ, and a loop's body sees
 * what its later iterations leave. Each statement keeps the set that holds
 * before it (ts_snap); statements that later passes create (splits, hoists)
 * have none and see every value that differs anywhere (c->tainted). */
typedef struct ts_snap {
  const pki_stmt *s;
  pki_vec set; /* pki_var *: the values that differ before s */
} ts_snap;

typedef struct ts_taint {
  const pki_vec *set;
  bool found;
} ts_taint;

static void taint_expr(pki_visitor *v, const pki_expr *e) {
  ts_taint *t = v->data;
  if (is_intr(e, PKI_INTRINSIC_TEAM_RANK) || is_intr(e, PKI_INTRINSIC_POOL_GET_STATE) ||
      is_intr(e, PKI_INTRINSIC_THREAD_SCRATCH) ||
      (e->kind == PKI_E_INTRINSIC && e->intrinsic >= PKI_INTRINSIC_RAND_DRAND &&
       e->intrinsic <= PKI_INTRINSIC_RAND_NORMAL) ||
      (e->kind == PKI_E_INTRINSIC && e->intrinsic >= PKI_INTRINSIC_ATOMIC_FETCH_ADD &&
       e->intrinsic <= PKI_INTRINSIC_ATOMIC_FETCH_RSHIFT) ||
      is_intr(e, PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE) ||
      (e->kind == PKI_E_VAR && pki_vec_has(t->set, e->var)))
    t->found = true;
}

static bool tainted_in(const pki_vec *set, const pki_expr *e) {
  ts_taint t = {.set = set};
  pki_visitor v = {.expr = taint_expr, .data = &t};
  pki_visit_expr(&v, e);
  return t.found;
}

/* The set that holds before statement s (see ts_snap). */
static const pki_vec *taint_before(const ts_ctx *c, const pki_stmt *s) {
  for (int i = 0; s && i < c->snaps.n; i++) {
    const ts_snap *p = c->snaps.items[i];
    if (p->s == s)
      return &p->set;
  }
  return &c->tainted;
}

/* e, evaluated at statement s, may differ between the threads of one team. */
static bool tainted(const ts_ctx *c, const pki_stmt *s, const pki_expr *e) {
  return tainted_in(taint_before(c, s), e);
}

static bool head_tainted(const pki_vec *set, const pki_stmt *s) {
  if (s->kind == PKI_S_IF || s->kind == PKI_S_WHILE)
    return tainted_in(set, s->cond);
  if (s->kind == PKI_S_FOR)
    return tainted_in(set, s->begin) || tainted_in(set, s->end) || tainted_in(set, s->step);
  return false;
}

/* s chooses what runs by a thread-dependent value (if/while condition,
 * loop bounds). */
static bool divergent(const ts_ctx *c, const pki_stmt *s) {
  return head_tainted(taint_before(c, s), s);
}

/* A per-thread nested pattern (ThreadVectorRange) whose bounds or closure
 * read a per-thread value: each thread's result is its own. */
static bool per_thread_result(const pki_vec *set, const pki_stmt *s) {
  if (team_range(s->range) || !s->closure)
    return false;
  ts_taint t = {.set = set};
  pki_visitor v = {.expr = taint_expr, .closures = true, .data = &t};
  for (int i = 1; i < s->nargs; i++)
    pki_visit_expr(&v, s->args[i]);
  pki_visit_func(&v, s->closure);
  return t.found;
}

static void flow_block(ts_ctx *c, const pki_block *b, pki_vec *set);

static pki_vec copy_set(pki_arena *a, const pki_vec *from) {
  pki_vec out = {0};
  for (int i = 0; i < from->n; i++)
    pki_vec_push(a, &out, from->items[i]);
  return out;
}

static void remove_var(pki_vec *set, const pki_var *x) {
  for (int i = 0; i < set->n; i++)
    if (set->items[i] == x) {
      set->items[i] = set->items[--set->n];
      return;
    }
}

static void snapshot(ts_ctx *c, const pki_stmt *s, const pki_vec *set) {
  pki_arena *a = c->m->arena;
  for (int i = 0; i < c->snaps.n; i++) {
    ts_snap *p = c->snaps.items[i];
    if (p->s == s) { /* a loop's body again: sets only grow */
      for (int k = 0; k < set->n; k++)
        add(a, &p->set, set->items[k]);
      return;
    }
  }
  ts_snap *p = pki_alloc(a, sizeof *p);
  *p = (ts_snap){.s = s, .set = copy_set(a, set)};
  pki_vec_push(a, &c->snaps, p);
}

/* The variables a per-thread branch or loop assigns differ between threads;
 * the elements of a shared View it stores to do not (they are the team's:
 * once a barrier orders the stores, which rule 2 makes sure of, every thread
 * reads the same). */
static void taint_writes(ts_ctx *c, const pki_block *b, pki_vec *set) {
  ts_use u = uses_of(c->m->arena, b, 0, b->n);
  for (int i = 0; i < u.writes.n; i++) {
    const pki_var *w = u.writes.items[i];
    if (!(w && w->type.kind == PKI_VIEW && !pki_vec_has(&c->private_views, w)))
      add(c->m->arena, set, w);
  }
}

/* A loop: its body runs with what earlier iterations left, until nothing
 * new differs; the loop may also run no iteration. */
static void flow_loop(ts_ctx *c, const pki_stmt *s, pki_vec *set) {
  pki_arena *a = c->m->arena;
  for (int round = 0; round < 16; round++) {
    bool div = head_tainted(set, s);
    pki_vec in = copy_set(a, set);
    if (s->kind == PKI_S_FOR && div)
      add(a, &in, s->var);
    flow_block(c, &s->body, &in);
    if (div)
      taint_writes(c, &s->body, &in);
    bool grew = false;
    for (int i = 0; i < in.n; i++)
      grew |= add(a, set, in.items[i]);
    if (!grew)
      return;
  }
}

static void flow_stmt(ts_ctx *c, const pki_stmt *s, pki_vec *set) {
  pki_arena *a = c->m->arena;
  snapshot(c, s, set);
  const pki_var *w = s->kind == PKI_S_DECL ? s->var
                     : s->target && s->target->kind == PKI_E_VAR ? s->target->var : NULL;
  if (s->kind == PKI_S_IF) {
    pki_vec other = copy_set(a, set);
    flow_block(c, &s->body, set);
    flow_block(c, &s->orelse, &other);
    for (int i = 0; i < other.n; i++)
      add(a, set, other.items[i]);
    if (head_tainted(taint_before(c, s), s)) {
      taint_writes(c, &s->body, set);
      taint_writes(c, &s->orelse, set);
    }
  } else if (s->kind == PKI_S_FOR || s->kind == PKI_S_WHILE) {
    flow_loop(c, s, set);
  } else if (s->kind == PKI_S_NESTED) {
    if (w && per_thread_result(set, s))
      add(a, set, w);
    else if (w && s->pattern != PKI_PATTERN_FOR)
      remove_var(set, w); /* a team reduce or scan gives every thread its result */
  } else if (w && pki_vec_has(&c->private_views, w)) {
    /* a thread's own scratch View stays its own */
  } else if (w && (s->kind == PKI_S_DECL || s->kind == PKI_S_ASSIGN)) {
    if (s->value && tainted_in(set, s->value))
      add(a, set, w);
    else
      remove_var(set, w);
  } else if (w && s->kind == PKI_S_AUGASSIGN && tainted_in(set, s->value)) {
    add(a, set, w);
  }
  for (int i = 0; i < set->n; i++)
    add(a, &c->tainted, set->items[i]);
}

static void flow_block(ts_ctx *c, const pki_block *b, pki_vec *set) {
  for (int i = 0; i < b->n; i++)
    flow_stmt(c, b->stmts[i], set);
}

typedef struct ts_private {
  ts_ctx *c;
  bool thread;
} ts_private;

static void private_expr(pki_visitor *v, const pki_expr *e) {
  ts_private *t = v->data;
  t->thread |= is_intr(e, PKI_INTRINSIC_THREAD_SCRATCH);
}

static void private_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_private *t = v->data;
  if (s->kind != PKI_S_DECL || !s->var || s->var->type.kind != PKI_VIEW || !s->value)
    return;
  ts_private in = {.c = t->c};
  pki_visitor w = {.expr = private_expr, .data = &in};
  pki_visit_expr(&w, s->value);
  if (in.thread)
    add(t->c->m->arena, &t->c->private_views, s->var);
}

/* The Views declared over m.thread_scratch(level): each thread's own. */
static void find_private_views(ts_ctx *c) {
  ts_private t = {.c = c};
  pki_visitor v = {.stmt = private_stmt, .closures = true, .data = &t};
  pki_visit_block(&v, &c->root->body);
}

static void compute_taint(ts_ctx *c) {
  pki_vec set = copy_set(c->m->arena, &c->private_views);
  c->tainted = copy_set(c->m->arena, &c->private_views);
  flow_block(c, &c->root->body, &set);
}

/* ---------------------------------------------------------- collectives */


/* s is a pattern every thread of the team must enter. */
static bool collective(const pki_stmt *s) {
  return (s->kind == PKI_S_NESTED && team_range(s->range)) ||
         (s->kind == PKI_S_EXPR && is_intr(s->value, PKI_INTRINSIC_TEAM_BARRIER));
}

static const char *range_name(int r) {
  switch (r) {
  case PKI_RANGE_TEAM_THREAD: return "TeamThreadRange";
  case PKI_RANGE_TEAM_VECTOR: return "TeamVectorRange";
  case PKI_RANGE_TEAM_THREAD_MD: return "TeamThreadMDRange";
  default: return "ThreadVectorRange";
  }
}

static const char *what(pki_arena *a, const pki_stmt *s) {
  static const char *pat[] = {"parallel_for", "parallel_reduce", "parallel_scan"};
  switch (s->kind) {
  case PKI_S_NESTED: return pki_sprintf(a, "%s over %s", pat[s->pattern % 3], range_name(s->range));
  case PKI_S_EXPR: return is_intr(s->value, PKI_INTRINSIC_TEAM_BARRIER) ? "team_barrier()"
                                                                         : "statement";
  case PKI_S_SINGLE: return "pk.single";
  case PKI_S_IF: return "`if`";
  case PKI_S_FOR: return "`for` loop";
  case PKI_S_WHILE: return "`while` loop";
  default: return "statement";
  }
}

typedef struct ts_find {
  const pki_stmt *first;
} ts_find;

static void find_coll(pki_visitor *v, const pki_stmt *s) {
  ts_find *f = v->data;
  if (!f->first && collective(s))
    f->first = s;
}

/* The first collective in statements b[from..to) (not inside closures). */
static const pki_stmt *first_collective(const pki_block *b, int from, int to) {
  ts_find f = {0};
  pki_visitor v = {.stmt = find_coll, .data = &f};
  for (int i = from; i < to && i < b->n && !f.first; i++)
    pki_visit_stmt(&v, b->stmts[i]);
  return f.first;
}

static void divergence_error(ts_ctx *c, const pki_stmt *coll, const pki_stmt *branch,
                             const char *why) {
  pki_error(c->d, coll->span, "divergent-collective",
            "%s is inside the %s at line %u, which depends on %s.team_rank() (or another "
            "per-thread value), so only some threads of the team reach it, but Kokkos "
            "needs every thread of the team to enter it (on GPUs the result is wrong or the "
            "kernel hangs); pkc cannot move it out: %s. Move it before the %s so that every "
            "thread runs it and keep only its use under the condition, or do the work in "
            "pk.single(pk.PerTeam(%s), ...) with a plain loop",
            what(c->m->arena, coll), branch->kind == PKI_S_IF ? "`if`" : "loop",
            (unsigned)branch->span.line, c->member->name, why,
            branch->kind == PKI_S_IF ? "`if`" : "loop", c->member->name);
}

/* ------------------------------------------------------------ hoisting */

/* cond is exactly `m.team_rank() == 0`: one thread of every team takes it. */
static bool rank0(const pki_expr *e) {
  e = pki_uncast(e);
  if (!e || e->kind != PKI_E_COMPARE || e->op != PKI_OP_EQ)
    return false;
  int64_t v;
  const pki_expr *a = e->args[0], *b = e->args[1];
  a = pki_uncast(a);
  b = pki_uncast(b);
  return (is_intr(a, PKI_INTRINSIC_TEAM_RANK) && pki_const_int(b, &v) && v == 0) ||
         (is_intr(b, PKI_INTRINSIC_TEAM_RANK) && pki_const_int(a, &v) && v == 0);
}

/* Every `and` operand of cond depends on the thread (a team-uniform guard
 * such as `e < n and m.team_rank() == 0` may protect the collective's reads). */
static bool selects_threads(ts_ctx *c, const pki_stmt *br, const pki_expr *e) {
  if (e->kind == PKI_E_LOGICAL && e->op == PKI_OP_AND)
    return selects_threads(c, br, e->args[0]) && selects_threads(c, br, e->args[1]);
  return tainted(c, br, e);
}

/* Variables the closure of nested pattern s owns (its index, accumulator,
 * locals, nested closures' ones). */
static void owned(pki_arena *a, const pki_func *g, pki_vec *out) {
  for (int i = 0; i < g->nindex; i++)
    add(a, out, g->index[i]);
  add(a, out, g->acc);
  add(a, out, g->final);
  for (int i = 0; i < g->nparams; i++)
    add(a, out, g->params[i]);
  for (int i = 0; i < g->nlocals; i++)
    add(a, out, g->locals[i]);
  for (int i = 0; i < g->nclosures; i++)
    owned(a, g->closures[i], out);
}

/* The collective writes nothing but its own variables and its result. */
static bool pure_collective(ts_ctx *c, const pki_stmt *s) {
  if (s->kind != PKI_S_NESTED)
    return true;
  if (!s->closure)
    return false;
  ts_use u = uses_of(c->m->arena, &s->closure->body, 0, s->closure->body.n);
  pki_vec own = {0};
  owned(c->m->arena, s->closure, &own);
  for (int i = 0; i < u.writes.n; i++)
    if (!pki_vec_has(&own, u.writes.items[i]))
      return false;
  return !u.calls && !u.effects;
}

/* What the collective reads: its range arguments and its closure. */
static ts_use coll_uses(ts_ctx *c, const pki_stmt *s) {
  ts_use u = {.a = c->m->arena};
  pki_visitor v = {.expr = use_expr, .stmt = use_stmt, .closures = true, .data = &u};
  for (int i = 0; i < s->nargs; i++)
    pki_visit_expr(&v, s->args[i]);
  if (s->closure)
    pki_visit_block(&v, &s->closure->body);
  return u;
}

/* Why the collective at body[k] of branch cannot be hoisted, or NULL. */
static const char *hoist_blocker(ts_ctx *c, const pki_stmt *br, int k) {
  const pki_stmt *s = br->body.stmts[k];
  pki_arena *a = c->m->arena;
  if (!pure_collective(c, s) && !rank0(br->cond))
    return "it has effects of its own (it writes Views or outer variables) and the "
           "condition is not `team_rank() == 0`, so running it on every thread could "
           "change what it writes";
  ts_use before = uses_of(a, &br->body, 0, k);
  ts_use mine = coll_uses(c, s);
  if (meets(&mine.refs, &before.writes))
    return "its range or its closure reads a value the branch computes before it";
  if (s->target && pki_vec_has(&before.refs, root_var(s->target))) {
    /* only a declaration without a value may come before */
    for (int i = 0; i < k; i++) {
      const pki_stmt *p = br->body.stmts[i];
      if (!(p->kind == PKI_S_DECL && !p->value && p->var == root_var(s->target))) {
        ts_use one = uses_of(a, &br->body, i, i + 1);
        if (pki_vec_has(&one.refs, root_var(s->target)))
          return "the branch uses its result variable before it";
      }
    }
  }
  if (leaves(&br->body, 0, k, false, true))
    return "the branch may return, break or continue before it";
  return NULL;
}

/* Why branch br (in its enclosing block) cannot be split around its
 * collectives, or NULL. */
static const char *split_blocker(ts_ctx *c, const pki_stmt *br) {
  pki_arena *a = c->m->arena;
  if (br->kind != PKI_S_IF)
    return "its loop bounds or condition depend on the thread";
  if (br->orelse.n > 0)
    return "the `if` has an `else` branch";
  ts_use cu = uses_of_expr(a, br->cond);
  if (cu.calls || cu.effects)
    return "the condition calls functions or draws random numbers";
  if (!selects_threads(c, br, br->cond))
    return "the condition also tests a value that is the same for the whole team (split it: "
           "an outer `if` on that value, an inner one on team_rank())";
  ts_use all = uses_of(a, &br->body, 0, br->body.n);
  if (meets(&cu.refs, &all.writes))
    return "the branch changes a variable its condition reads";
  for (int k = 0; k < br->body.n; k++) {
    const pki_stmt *s = br->body.stmts[k];
    if (collective(s)) {
      const char *why = hoist_blocker(c, br, k);
      if (why)
        return why;
    } else if (first_collective(&br->body, k, k + 1)) {
      return "it is nested deeper than the branch's own statements";
    }
  }
  return NULL;
}

/* Statements [from, to) of br's body as a new `if cond:` (NULL if empty). */
static pki_stmt *guarded(ts_ctx *c, const pki_stmt *br, int from, int to) {
  if (from >= to)
    return NULL;
  pki_stmt *g = pki_new_stmt(c->m, PKI_S_IF, br->body.stmts[from]->span);
  g->cond = br->cond;
  for (int i = from; i < to; i++)
    pki_block_push(c->m->arena, &g->body, br->body.stmts[i]);
  return g;
}

/* Which segment (0 = before the first collective, ...) statement i is in;
 * collectives are segment -1. */
static int segment_of(const pki_block *b, int i) {
  if (collective(b->stmts[i]))
    return -1;
  int seg = 0;
  for (int k = 0; k < i; k++)
    seg += collective(b->stmts[k]);
  return seg;
}

/* Declarations at the top of a segment used outside it move before the
 * split `if`s (as `T x = 0`; an initial value stays as an assignment).
 * Returns why it cannot, or NULL. */
static const char *lift_decls(ts_ctx *c, pki_stmt *br, pki_block *out, bool dry) {
  pki_arena *a = c->m->arena;
  pki_block *b = &br->body;
  for (int i = 0; i < b->n; i++) {
    pki_stmt *s = b->stmts[i];
    if (s->kind != PKI_S_DECL)
      continue;
    bool elsewhere = false;
    for (int k = 0; k < b->n && !elsewhere; k++) {
      if (k == i || (segment_of(b, k) == segment_of(b, i) && segment_of(b, k) >= 0))
        continue;
      ts_use u = uses_of(a, b, k, k + 1);
      elsewhere = pki_vec_has(&u.refs, s->var);
    }
    if (!elsewhere)
      continue;
    if (s->value && !pki_is_numeric(s->var->type.kind))
      return pki_sprintf(a, "'%s' (line %u) is declared in the branch and used across it",
                         s->var->name, (unsigned)s->span.line);
    if (dry)
      continue;
    pki_stmt *d = pki_new_stmt(c->m, PKI_S_DECL, s->span);
    d->var = s->var;
    pki_block_push(a, out, d);
    if (s->value) { /* the declaration becomes an assignment in place */
      pki_expr *t = pki_new_expr(c->m, PKI_E_VAR, s->span);
      t->var = s->var;
      t->type = s->var->type;
      s->kind = PKI_S_ASSIGN;
      s->target = t;
      s->var = NULL;
    } else {
      s->kind = PKI_S_EXPR; /* removed below */
      s->value = NULL;
    }
  }
  return NULL;
}

/* Replaces divergent `if` block->stmts[k] by: its lifted declarations, then
 * per collective `if cond: <statements before it>`, the collective, ...,
 * `if cond: <the rest>`. */
static void split(ts_ctx *c, pki_block *block, int k) {
  pki_stmt *br = block->stmts[k];
  pki_arena *a = c->m->arena;
  pki_block out = {0};
  const pki_stmt *first = first_collective(&br->body, 0, br->body.n);
  const char *why = lift_decls(c, br, &out, true);
  if (why) {
    divergence_error(c, first, br, why);
    return;
  }
  lift_decls(c, br, &out, false);
  pki_block kept = {0}; /* the body without the declarations lifted away */
  for (int i = 0; i < br->body.n; i++)
    if (!(br->body.stmts[i]->kind == PKI_S_EXPR && !br->body.stmts[i]->value))
      pki_block_push(a, &kept, br->body.stmts[i]);
  br->body = kept;
  int from = 0;
  for (int i = 0; i <= br->body.n; i++) {
    if (i < br->body.n && !collective(br->body.stmts[i]))
      continue;
    pki_stmt *g = guarded(c, br, from, i);
    if (g)
      pki_block_push(a, &out, g);
    if (i < br->body.n) {
      pki_stmt *s = br->body.stmts[i];
      pki_block_push(a, &out, s);
      pki_note(c->d, s->span, "team-hoist",
               "pkc moved this %s out of the `if` at line %u, which only some threads of "
               "the team take: Kokkos needs every thread of the team to enter it (on GPUs "
               "the result was wrong, on CPUs with teams of several threads it hangs); now "
               "every thread runs it and only the statements around it stay under the "
               "condition",
               what(a, s), (unsigned)br->span.line);
    }
    from = i + 1;
  }
  pki_block nb = {0};
  for (int i = 0; i < block->n; i++)
    if (i != k)
      pki_block_push(a, &nb, block->stmts[i]);
    else
      for (int j = 0; j < out.n; j++)
        pki_block_push(a, &nb, out.stmts[j]);
  *block = nb;
}

/* A break or continue under a thread-dependent condition in loop: the
 * threads that take it skip the collectives of the loop's body. */
static void check_divergent_exit(ts_ctx *c, const pki_stmt *s, const pki_stmt *loop) {
  if (!loop || s->kind != PKI_S_IF ||
      !(leaves(&s->body, 0, s->body.n, false, false) ||
        leaves(&s->orelse, 0, s->orelse.n, false, false)))
    return;
  const pki_stmt *coll = first_collective(&loop->body, 0, loop->body.n);
  if (coll)
    pki_error(c->d, coll->span, "divergent-collective",
              "%s is in the loop at line %u, which some threads of the team leave or "
              "skip early (break or continue under the condition at line %u, which depends "
              "on %s.team_rank()); Kokkos needs every thread of the team to enter it. Make "
              "the loop's trip count the same for the whole team and guard only the "
              "statements that need it",
              what(c->m->arena, coll), (unsigned)loop->span.line, (unsigned)s->span.line,
              c->member->name);
}

/* Rule 1 over block b of the team body (loop: the innermost loop around b). */
static void fix_divergence(ts_ctx *c, pki_block *b, const pki_stmt *loop) {
  for (int k = 0; k < b->n; k++) {
    pki_stmt *s = b->stmts[k];
    if (s->kind != PKI_S_IF && s->kind != PKI_S_FOR && s->kind != PKI_S_WHILE)
      continue;
    if (!divergent(c, s)) {
      const pki_stmt *inner = s->kind == PKI_S_IF ? loop : s;
      fix_divergence(c, &s->body, inner);
      fix_divergence(c, &s->orelse, inner);
      continue;
    }
    check_divergent_exit(c, s, loop);
    const pki_stmt *coll = first_collective(b, k, k + 1);
    if (!coll)
      continue;
    const char *why = split_blocker(c, s);
    if (why) {
      divergence_error(c, coll, s, why);
      continue;
    }
    int n0 = b->n;
    split(c, b, k);
    k += b->n - n0; /* past what replaced it */
  }
}

/* A return under a thread-dependent condition: the threads that took it
 * never reach a later collective. */
typedef struct ts_ret {
  ts_ctx *c;
  const pki_stmt *ret;  /* first such return */
  const pki_stmt *coll; /* first collective after it */
} ts_ret;

static void ret_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_ret *r = v->data;
  if (!r->ret && divergent(r->c, s)) {
    if (s->kind == PKI_S_IF && (leaves(&s->body, 0, s->body.n, true, true) ||
                                leaves(&s->orelse, 0, s->orelse.n, true, true)))
      r->ret = s;
  } else if (r->ret && !r->coll && collective(s) && s->span.start_byte > r->ret->span.end_byte) {
    r->coll = s;
  }
}

static void exit_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_ctx *c = v->data;
  c->exits |= s->kind == PKI_S_IF && divergent(c, s) &&
              (leaves(&s->body, 0, s->body.n, false, true) ||
               leaves(&s->orelse, 0, s->orelse.n, false, true));
}

/* c->exits: a return, break or continue under a per-thread condition. */
static void find_exits(ts_ctx *c) {
  pki_visitor v = {.stmt = exit_stmt, .data = c};
  pki_visit_block(&v, &c->root->body);
}

static void check_early_return(ts_ctx *c) {
  ts_ret r = {.c = c};
  pki_visitor v = {.stmt = ret_stmt, .data = &r};
  pki_visit_block(&v, &c->root->body);
  if (r.coll)
    pki_error(c->d, r.coll->span, "divergent-collective",
              "%s comes after the `if` at line %u, where some threads of the team may leave "
              "(return, break or continue under a condition on team_rank()); Kokkos needs "
              "every thread of the team to enter it. Put the early exit after it, or guard "
              "only the statements that need it",
              what(c->m->arena, r.coll), (unsigned)r.ret->span.line);
}

/* ------------------------------------------------------------- barriers */

/* A View written by a nested parallel_for since the last barrier. */
typedef struct ts_pending {
  const pki_var *view;
  const pki_stmt *writer;  /* the statement that wrote it */
  const pki_expr *target;  /* its one element written (y[j][i]), NULL: several or unknown */
  bool atomic;             /* written by atomics only: other atomics need no barrier */
} ts_pending;

typedef struct ts_writes {
  pki_arena *a;
  const pki_func *g;
  pki_vec own;    /* the closure's own variables */
  pki_vec views;  /* const pki_var * written */
  pki_vec target; /* per view: its one target expression (NULL: several) */
  pki_vec plain;  /* views also written other than by an atomic */
  bool direct;    /* visiting the closure's own body (not a nested closure) */
} ts_writes;

static void wr_note(ts_writes *w, const pki_var *v, const pki_expr *t) {
  if (!v || pki_vec_has(&w->own, v) || (v->type.kind != PKI_VIEW))
    return;
  for (int i = 0; i < w->views.n; i++)
    if (w->views.items[i] == v) {
      const pki_expr *old = w->target.items[i];
      if (!t || !old || !pki_same_expr(old->args[0], t->args[0]) || old->nargs != t->nargs)
        w->target.items[i] = NULL;
      else
        for (int k = 1; k < t->nargs; k++)
          if (!pki_same_expr(old->args[k], t->args[k]))
            w->target.items[i] = NULL;
      return;
    }
  pki_vec_push(w->a, &w->views, (void *)v);
  pki_vec_push(w->a, &w->target, (void *)(w->direct ? t : NULL));
}

static void wr_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_writes *w = v->data;
  if ((s->kind == PKI_S_ASSIGN || s->kind == PKI_S_AUGASSIGN) && s->target &&
      s->target->kind == PKI_E_INDEX) {
    wr_note(w, root_var(s->target), w->direct ? s->target : NULL);
    add(w->a, &w->plain, root_var(s->target));
  }
}

static void wr_expr(pki_visitor *v, const pki_expr *e) {
  ts_writes *w = v->data;
  if (e->kind == PKI_E_INTRINSIC && is_atomic(e->intrinsic) && e->nargs > 0)
    wr_note(w, root_var(e->args[0]), NULL);
  if (e->kind == PKI_E_CALL)
    for (int i = 0; i < e->nargs; i++)
      if (e->args[i] && e->args[i]->type.kind == PKI_VIEW) {
        wr_note(w, root_var(e->args[i]), NULL);
        add(w->a, &w->plain, root_var(e->args[i]));
      }
}

/* The Views w found written by statement s, into pending (but those in skip). */
static void push_pending(const ts_writes *w, const pki_stmt *s, const pki_vec *skip,
                         pki_vec *pending) {
  for (int i = 0; i < w->views.n; i++) {
    const pki_var *view = w->views.items[i];
    if (skip && pki_vec_has(skip, view))
      continue;
    ts_pending *p = pki_alloc(w->a, sizeof *p);
    p->view = view;
    p->writer = s;
    p->target = w->target.items[i];
    p->atomic = !pki_vec_has(&w->plain, view);
    pki_vec_push(w->a, pending, p);
  }
}

/* The Views nested parallel_for s writes, into pending. */
static void add_writes(ts_ctx *c, const pki_stmt *s, pki_vec *pending) {
  ts_writes w = {.a = c->m->arena, .g = s->closure, .direct = true};
  owned(w.a, s->closure, &w.own);
  pki_visitor v = {.stmt = wr_stmt, .expr = wr_expr, .data = &w};
  pki_visit_block(&v, &s->closure->body);
  w.direct = false;
  for (int i = 0; i < s->closure->nclosures; i++)
    pki_visit_func(&v, s->closure->closures[i]);
  push_pending(&w, s, NULL, pending);
}

/* The Views statement s (not a nested team-range parallel_for) writes, into
 * pending: elements some thread stores (a store under a per-thread
 * condition, in pk.single, at a per-thread index, in a ThreadVectorRange
 * pattern or the final pass of a scan) that another thread may read next. */
typedef struct ts_closures {
  bool found;
} ts_closures;

static void closure_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_closures *t = v->data;
  t->found |= s->closure != NULL;
}

static bool has_closure(const pki_stmt *s) {
  ts_closures t = {0};
  pki_visitor v = {.stmt = closure_stmt, .data = &t};
  pki_visit_stmt(&v, s);
  return t.found;
}

static void add_stmt_writes(ts_ctx *c, const pki_stmt *s, pki_vec *pending) {
  /* without a closure inside, its indices are the team body's own */
  ts_writes w = {.a = c->m->arena, .direct = !has_closure(s)};
  pki_visitor v = {.stmt = wr_stmt, .expr = wr_expr, .closures = true, .data = &w};
  pki_visit_stmt(&v, s);
  push_pending(&w, s, &c->private_views, pending); /* not a thread's own scratch */
}

/* a and b are equal, reading va in a as vb in b. */
static bool same_renamed(const pki_expr *a, const pki_expr *b, const pki_var *va,
                         const pki_var *vb) {
  if (!a || !b || a->kind != b->kind || a->nargs != b->nargs)
    return false;
  switch (a->kind) {
  case PKI_E_INT: case PKI_E_BOOL: if (a->ival != b->ival) return false; break;
  case PKI_E_VAR:
    if (!(a->var == b->var || (a->var == va && b->var == vb)))
      return false;
    break;
  case PKI_E_UNARY: case PKI_E_BINARY: if (a->op != b->op) return false; break;
  case PKI_E_CAST: if (!pki_type_eq(a->type, b->type)) return false; break;
  default: return false;
  }
  for (int i = 0; i < a->nargs; i++)
    if (!same_renamed(a->args[i], b->args[i], va, vb))
      return false;
  return true;
}

typedef struct ts_reads {
  const ts_pending *p;
  const pki_stmt *reader; /* a nested pattern of the same range as the writer, or NULL */
  int all, own;           /* accesses of the View; those at the writer's element */
  bool stores;            /* plain stores count too (a write after this statement) */
  const ts_ctx *c;
} ts_reads;

/* e is m.team_rank(), or a local set to it once: each thread its own value. */
static bool rank_value(const ts_ctx *c, const pki_expr *e) {
  e = pki_uncast(e);
  return is_intr(e, PKI_INTRINSIC_TEAM_RANK) ||
         (e && e->kind == PKI_E_VAR && pki_vec_has(&c->rank_vars, e->var) &&
          !pki_vec_has(&c->changing, e->var));
}

/* Accesses a and b (of one View, at the team body's level) never reach
 * one element from two threads: two different constants at some index, or
 * the same indices with one of them the thread's rank (its own slot). */
static bool thread_apart(const ts_ctx *c, const pki_expr *a, const pki_expr *b) {
  bool same = true, slot = false;
  for (int k = 1; k < a->nargs; k++) {
    int64_t x, y;
    if (pki_const_int(a->args[k], &x) && pki_const_int(b->args[k], &y) && x != y)
      return true;
    same = same && pki_same_expr(a->args[k], b->args[k]);
    slot = slot || rank_value(c, a->args[k]);
  }
  return same && slot;
}

static void rd_expr(pki_visitor *v, const pki_expr *e) {
  ts_reads *r = v->data;
  if (e->kind == PKI_E_EXTENT && e->nargs > 0 && e->args[0] &&
      e->args[0]->kind == PKI_E_VAR && e->args[0]->var == r->p->view)
    r->all--; /* v.extent(k) reads no element; its operand is counted next */
  if (r->p->atomic && e->kind == PKI_E_INTRINSIC && is_atomic(e->intrinsic) && e->nargs > 0 &&
      root_var(e->args[0]) == r->p->view)
    r->all--; /* an atomic after atomics: they need no order; its View is counted next */
  if ((e->kind == PKI_E_VAR || e->kind == PKI_E_FIELD) && e->var == r->p->view)
    r->all++;
  if (e->kind == PKI_E_INDEX && root_var(e) == r->p->view && r->p->target &&
      e->nargs == r->p->target->nargs) {
    bool same = !!r->reader;
    if (r->reader) {
      const pki_var *vw = r->p->writer->closure->index[0];
      const pki_var *vr = r->reader->closure->index[0];
      for (int k = 1; k < e->nargs && same; k++)
        same = same_renamed(r->p->target->args[k], e->args[k], vw, vr);
    } else if (r->p->writer->kind != PKI_S_NESTED) {
      same = thread_apart(r->c, r->p->target, e);
    }
    r->own += same;
  }
}

/* Plain stores `y[...] = x` are not reads (their indices are). */
static void rd_target(pki_visitor *v, const pki_stmt *s, const pki_expr *t) {
  ts_reads *r = v->data;
  if (s->kind == PKI_S_ASSIGN && t->kind == PKI_E_INDEX && !r->reader && !r->stores) {
    for (int k = 1; k < t->nargs; k++)
      pki_visit_expr(v, t->args[k]);
    return;
  }
  pki_visit_expr(v, t);
}

/* The reader runs the writer's iterations on the same threads: the same
 * kind of range over the same bounds, whose values cannot have changed in
 * between (no variable or View they name is assigned after it is set). */
static bool same_range(const ts_ctx *c, const pki_stmt *a, const pki_stmt *b) {
  if (a->kind != PKI_S_NESTED || b->kind != PKI_S_NESTED || a->range != b->range ||
      a->nargs != b->nargs || !a->closure || !b->closure || a->closure->nindex != 1 ||
      b->closure->nindex != 1)
    return false;
  for (int i = 1; i < a->nargs; i++) {
    if (!pki_same_expr(a->args[i], b->args[i]))
      return false;
    ts_use u = uses_of_expr(c->m->arena, a->args[i]);
    if (meets(&u.refs, &c->changing))
      return false;
  }
  return true;
}

typedef struct ts_changes {
  ts_ctx *c;
  pki_vec once; /* variables assigned once so far */
} ts_changes;

static void changes_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_changes *t = v->data;
  pki_arena *a = t->c->m->arena;
  if (s->kind == PKI_S_FOR || s->kind == PKI_S_WHILE) {
    ts_use u = uses_of(a, &s->body, 0, s->body.n);
    merge(a, &t->c->changing, &u.writes); /* assigned again every iteration */
    add(a, &t->c->changing, s->var);
  }
  if (s->kind == PKI_S_DECL && s->var && s->value && is_intr(pki_uncast(s->value), PKI_INTRINSIC_TEAM_RANK))
    add(a, &t->c->rank_vars, s->var);
  if (s->kind == PKI_S_DECL && s->var && s->value &&
      is_intr(pki_uncast(s->value), PKI_INTRINSIC_LEAGUE_RANK))
    add(a, &t->c->league_vars, s->var);
  ts_use u = {.a = a};
  pki_visitor w = {.expr = use_expr, .stmt = use_stmt, .data = &u};
  pki_visit_stmt(&w, s); /* only this statement's own writes: blocks are visited next */
  for (int i = 0; i < u.writes.n; i++) {
    const pki_var *x = u.writes.items[i];
    if (x->type.kind == PKI_VIEW || !add(a, &t->once, x))
      add(a, &t->c->changing, x);
  }
}

/* c->changing: the variables of the team body assigned more than once or in
 * a loop, and the Views it stores to. */
static void find_changing(ts_ctx *c) {
  ts_changes t = {.c = c};
  pki_visitor v = {.stmt = changes_stmt, .closures = true, .data = &t};
  pki_visit_block(&v, &c->root->body);
}

/* Statement s may read an element of p's View written by another thread
 * (stores: or store to one; p's writer then comes after s). */
static bool touches_other(const ts_ctx *c, const ts_pending *p, const pki_stmt *s, bool stores) {
  ts_reads r = {.p = p, .reader = same_range(c, p->writer, s) ? s : NULL, .stores = stores,
                .c = c};
  pki_visitor v = {.expr = rd_expr, .target = rd_target, .closures = !r.reader, .data = &r};
  if (r.reader) {
    /* the accesses directly in the reader's body may be the thread's own */
    for (int i = 0; i < s->nargs; i++)
      pki_visit_expr(&v, s->args[i]);
    pki_visit_block(&v, &s->closure->body);
    int direct_all = r.all, direct_own = r.own;
    r.reader = NULL; /* nested closures: any access counts */
    r.all = r.own = 0;
    for (int i = 0; i < s->closure->nclosures; i++)
      pki_visit_func(&v, s->closure->closures[i]);
    /* each INDEX access names the View once */
    return r.all > 0 || direct_all > direct_own;
  }
  pki_visit_stmt(&v, s);
  return r.all > r.own;
}

/* The condition or bounds of uniform if/loop s read an element of a pending
 * View (the blocks are checked statement by statement). */
static bool heads_read(const ts_ctx *c, const ts_pending *p, const pki_stmt *s) {
  const pki_expr *heads[] = {s->cond, s->begin, s->end, s->step};
  ts_reads r = {.p = p, .c = c};
  pki_visitor v = {.expr = rd_expr, .data = &r};
  for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++)
    if (heads[h])
      pki_visit_expr(&v, heads[h]);
  return r.all > 0;
}

static const ts_pending *cond_conflict(const ts_ctx *c, const pki_vec *pending,
                                       const pki_stmt *s) {
  for (int i = 0; i < pending->n; i++)
    if (heads_read(c, PKI_AT(*pending, i, ts_pending), s))
      return PKI_AT(*pending, i, ts_pending);
  return NULL;
}

static bool reads_other(const ts_ctx *c, const ts_pending *p, const pki_stmt *s) {
  return touches_other(c, p, s, false);
}

static const ts_pending *conflict(const ts_ctx *c, const pki_vec *pending, const pki_stmt *s) {
  for (int i = 0; i < pending->n; i++)
    if (reads_other(c, PKI_AT(*pending, i, ts_pending), s))
      return PKI_AT(*pending, i, ts_pending);
  return NULL;
}

/* Where a statement pkc adds goes: the start of the one it belongs to, with
 * no width, so that it holds none of that statement's code (ir/extents.c
 * reads spans as regions). */
static pki_span at_start(pki_span s) {
  s.end_line = s.line;
  s.end_col = s.col;
  s.end_byte = s.start_byte;
  return s;
}

static pki_stmt *barrier_stmt(ts_ctx *c, pki_span at) {
  pki_expr *mv = pki_new_expr(c->m, PKI_E_VAR, at);
  mv->var = c->member;
  mv->type = c->member->type;
  pki_expr *call = pki_new_expr_n(c->m, PKI_E_INTRINSIC, at, 1);
  call->intrinsic = PKI_INTRINSIC_TEAM_BARRIER;
  call->type = pki_void_type;
  call->args[0] = mv;
  pki_stmt *s = pki_new_stmt(c->m, PKI_S_EXPR, at);
  s->value = call;
  return s;
}

static void insert_at(pki_arena *a, pki_block *b, int k, pki_stmt *s) {
  pki_block_push(a, b, s);
  memmove(&b->stmts[k + 1], &b->stmts[k], (size_t)(b->n - 1 - k) * sizeof *b->stmts);
  b->stmts[k] = s;
}


/* What rule 2 carries from statement to statement: the stores not yet
 * ordered by a barrier (ts_pending *), and the statements run since the last
 * barrier, whose reads a later store must not overtake (ts_reader *). */
typedef struct ts_state {
  pki_vec writes;
  pki_vec readers;
} ts_state;

typedef struct ts_reader {
  const pki_stmt *s;
  bool heads; /* a uniform if/loop: only its condition or bounds */
} ts_reader;

static void push_reader(pki_arena *a, ts_state *st, const pki_stmt *s, bool heads) {
  ts_reader *r = pki_alloc(a, sizeof *r);
  *r = (ts_reader){.s = s, .heads = heads};
  pki_vec_push(a, &st->readers, r);
}

static ts_state merge_states(pki_arena *a, const ts_state *x, const ts_state *y) {
  ts_state out = {0};
  merge(a, &out.writes, &x->writes);
  merge(a, &out.writes, &y->writes);
  merge(a, &out.readers, &x->readers);
  merge(a, &out.readers, &y->readers);
  return out;
}

static ts_state barriers(ts_ctx *c, pki_block *b, ts_state in);

/* A uniform if/loop: its blocks see what is pending; a loop's body runs
 * again after itself. */
static ts_state barriers_compound(ts_ctx *c, pki_stmt *s, ts_state in) {
  pki_arena *a = c->m->arena;
  ts_state out = barriers(c, &s->body, in);
  if (s->kind == PKI_S_IF) {
    ts_state o2 = barriers(c, &s->orelse, in);
    return merge_states(a, &out, &o2);
  }
  if (out.writes.n || out.readers.n) { /* the next iteration follows this one */
    ts_state again = merge_states(a, &in, &out);
    out = barriers(c, &s->body, again);
  }
  return merge_states(a, &out, &in); /* the loop may run no iteration */
}

/* The stores statement s makes on some threads (rule 2's writers). */
static pki_vec stmt_writes(ts_ctx *c, const pki_stmt *s) {
  pki_vec out = {0};
  if (s->kind == PKI_S_NESTED && team_range(s->range) && s->closure)
    add_writes(c, s, &out);
  else if (!collective(s))
    add_stmt_writes(c, s, &out);
  return out;
}

/* A store of s may overwrite an element another thread still reads (or
 * stores) in a statement since the last barrier: *by gets that statement. */
static const ts_pending *war_conflict(const ts_ctx *c, const pki_vec *mine,
                                      const pki_vec *readers, const pki_stmt **by) {
  for (int i = 0; i < mine->n; i++) {
    const ts_pending *p = mine->items[i];
    for (int k = 0; k < readers->n; k++) {
      const ts_reader *r = readers->items[k];
      if (r->s != p->writer &&
          (r->heads ? heads_read(c, p, r->s) : touches_other(c, p, r->s, true))) {
        *by = r->s;
        return p;
      }
    }
  }
  return NULL;
}

static void barrier_before(ts_ctx *c, pki_block *b, int k, ts_state *st) {
  insert_at(c->m->arena, b, k, barrier_stmt(c, at_start(b->stmts[k]->span)));
  st->writes.n = 0;
  st->readers.n = 0;
}

/* Rule 2 over block b of the team body, with what is pending on entry;
 * returns what is pending at its end. */
static ts_state barriers(ts_ctx *c, pki_block *b, ts_state in) {
  pki_arena *a = c->m->arena;
  ts_state st = merge_states(a, &in, &(ts_state){0});
  for (int k = 0; k < b->n; k++) {
    pki_stmt *s = b->stmts[k];
    bool compound = s->kind == PKI_S_IF || s->kind == PKI_S_FOR || s->kind == PKI_S_WHILE;
    bool uniform = compound && !divergent(c, s);
    if (collective(s) && s->kind == PKI_S_EXPR) {
      st.writes.n = st.readers.n = 0; /* the program's own barrier */
      continue;
    }
    /* a uniform if/loop reads its condition or bounds on every thread first */
    const ts_pending *p = !st.writes.n ? NULL : uniform ? cond_conflict(c, &st.writes, s)
                                                        : conflict(c, &st.writes, s);
    pki_vec mine = uniform ? (pki_vec){0} : stmt_writes(c, s);
    const pki_stmt *by = NULL;
    const ts_pending *w = p ? NULL : war_conflict(c, &mine, &st.readers, &by);
    const char *why =
        p ? pki_sprintf(a, "it may read elements of '%s' that other threads of the team wrote "
                           "in the %s at line %u, and nothing ordered those writes before this "
                           "read (on GPUs it may see old values)",
                        p->view->name, what(a, p->writer), (unsigned)p->writer->span.line)
        : w ? pki_sprintf(a, "it may store to elements of '%s' that other threads of the team "
                             "still read in the %s at line %u, and nothing ordered those reads "
                             "before this store (on GPUs they may see the new values)",
                          w->view->name, what(a, by), (unsigned)by->span.line)
            : NULL;
    if (why) {
      barrier_before(c, b, k, &st);
      pki_note(c->d, s->span, "team-barrier",
               "pkc inserted %s.team_barrier() before this statement: %s", c->member->name, why);
      k++;
    }
    if (uniform) {
      push_reader(a, &st, s, true);
      st = barriers_compound(c, s, st);
    } else if (s->kind == PKI_S_NESTED && team_range(s->range) && s->pattern == PKI_PATTERN_REDUCE) {
      st.writes.n = st.readers.n = 0; /* Kokkos' nested reduce ends in a barrier */
    } else if (s->kind == PKI_S_NESTED && team_range(s->range) && s->pattern == PKI_PATTERN_SCAN) {
      /* the scan's barrier comes before the stores of its final pass */
      st.writes.n = st.readers.n = 0;
      add_stmt_writes(c, s, &st.writes);
      push_reader(a, &st, s, false);
    } else {
      merge(a, &st.writes, &mine);
      push_reader(a, &st, s, false);
    }
  }
  return st;
}

/* ---------------------------------------- collectives inside closures */

typedef struct ts_inner {
  ts_ctx *c;
  const pki_stmt *outer; /* the nested pattern whose closure is walked */
} ts_inner;

static void inner_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_inner *in = v->data;
  if (!collective(s))
    return;
  pki_error(in->c->d, s->span, "collective-in-closure",
            "%s is inside the closure of the %s at line %u, which each thread runs for "
            "its own iterations only (a different number of times, or not at all), but "
            "every thread of the team must reach it together (on GPUs the kernel hangs or "
            "computes wrong values); end the %s before it and start another after it",
            what(in->c->m->arena, s), what(in->c->m->arena, in->outer),
            (unsigned)in->outer->span.line, what(in->c->m->arena, in->outer));
}

static void nested_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_inner *in = v->data;
  if (s->kind != PKI_S_NESTED || !s->closure)
    return;
  ts_inner inner = {.c = in->c, .outer = s};
  pki_visitor w = {.stmt = inner_stmt, .closures = true, .data = &inner};
  pki_visit_block(&w, &s->closure->body);
}

/* Rule 5: no team barrier or team-range pattern inside a nested pattern's
 * closure (Kokkos' nesting is team range, then vector range). */
static void check_closure_collectives(ts_ctx *c) {
  ts_inner in = {.c = c};
  pki_visitor v = {.stmt = nested_stmt, .data = &in};
  pki_visit_block(&v, &c->root->body);
}

/* ------------------------------------------------------- partial values */

/* Variables stored to by statements, and those they declare. */
typedef struct ts_assigns {
  pki_arena *a;
  pki_vec set, declared;
} ts_assigns;

static void as_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_assigns *w = v->data;
  if (s->kind == PKI_S_DECL || s->kind == PKI_S_FOR)
    add(w->a, &w->declared, s->var);
  if ((s->kind == PKI_S_ASSIGN || s->kind == PKI_S_AUGASSIGN) && s->target &&
      s->target->kind == PKI_E_VAR)
    add(w->a, &w->set, s->target->var);
}

/* The scalars block b (closures included) assigns that it does not declare. */
static pki_vec assigned_outer(ts_ctx *c, const pki_block *b, const pki_func *closure) {
  ts_assigns w = {.a = c->m->arena};
  pki_visitor v = {.stmt = as_stmt, .closures = true, .data = &w};
  if (closure)
    owned(w.a, closure, &w.declared);
  pki_visit_block(&v, b);
  pki_vec out = {0};
  for (int i = 0; i < w.set.n; i++) {
    const pki_var *x = w.set.items[i];
    if (x->type.kind != PKI_VIEW && x->kind != PKI_VAR_ACC && !pki_vec_has(&w.declared, x))
      add(w.a, &out, x);
  }
  return out;
}

/* The scalars writer s leaves with a value on some threads only: assigned in
 * one branch of a per-thread `if`, in pk.single(pk.PerTeam), or (each
 * thread its own part) in a team-range parallel_for's closure. */
static pki_vec partial_vars(ts_ctx *c, const pki_stmt *s) {
  pki_vec out = {0};
  if (s->kind == PKI_S_IF && divergent(c, s)) {
    pki_vec body = assigned_outer(c, &s->body, NULL), other = assigned_outer(c, &s->orelse, NULL);
    for (int i = 0; i < body.n; i++)
      if (!pki_vec_has(&other, body.items[i]))
        add(c->m->arena, &out, body.items[i]);
    for (int i = 0; i < other.n; i++)
      if (!pki_vec_has(&body, other.items[i]))
        add(c->m->arena, &out, other.items[i]);
  } else if ((s->kind == PKI_S_SINGLE && s->range != PKI_RANGE_PER_THREAD && s->closure) ||
             (s->kind == PKI_S_NESTED && team_range(s->range) && s->closure &&
              s->pattern == PKI_PATTERN_FOR))
    out = assigned_outer(c, &s->closure->body, s->closure);
  return out;
}

typedef struct ts_read_var {
  const pki_var *var;
  bool found;
} ts_read_var;

static void rv_expr(pki_visitor *v, const pki_expr *e) {
  ts_read_var *r = v->data;
  r->found |= e->kind == PKI_E_VAR && e->var == r->var;
}

/* `x = value` and `x = pk.parallel_reduce(...)`: x itself is not read. */
static void rv_target(pki_visitor *v, const pki_stmt *s, const pki_expr *t) {
  if (!((s->kind == PKI_S_ASSIGN || s->kind == PKI_S_NESTED) && t->kind == PKI_E_VAR))
    pki_visit_expr(v, t);
}

/* Statement r gives x one value on every thread again. */
static bool reassigns_all(const ts_ctx *c, const pki_stmt *r, const pki_var *x) {
  if (!r->target || r->target->kind != PKI_E_VAR || r->target->var != x)
    return false;
  if (r->kind == PKI_S_ASSIGN)
    return !tainted(c, r, r->value);
  return r->kind == PKI_S_NESTED && team_range(r->range) && r->pattern != PKI_PATTERN_FOR;
}

static bool reads_var(const pki_stmt *s, const pki_var *x) {
  ts_read_var r = {.var = x};
  pki_visitor v = {.expr = rv_expr, .target = rv_target, .closures = true, .data = &r};
  pki_visit_stmt(&v, s);
  return r.found;
}

/* s runs on the threads writer w ran on (a branch on the same condition,
 * or a rank-0 branch after pk.single). */
static bool same_threads(const pki_stmt *w, const pki_stmt *s) {
  if (s->kind != PKI_S_IF || !s->cond)
    return false;
  if (w->kind == PKI_S_IF)
    return pki_same_expr(w->cond, s->cond) || (rank0(w->cond) && rank0(s->cond));
  return w->kind == PKI_S_SINGLE && rank0(s->cond);
}

static void partial_warning(ts_ctx *c, const pki_stmt *w, const pki_var *x, const pki_stmt *at) {
  const char *who = w->kind == PKI_S_IF       ? "only the threads that take the `if`"
                    : w->kind == PKI_S_SINGLE ? "only the thread that runs the pk.single"
                                              : "each thread, for its own iterations only, in "
                                                "the parallel_for";
  const char *fix = w->kind == PKI_S_NESTED
                        ? pki_sprintf(c->m->arena, "to combine every thread's part use "
                                                   "pk.parallel_reduce(pk.%s(...), ...)",
                                      range_name(w->range))
                        : "to share it, store it in a team scratch View (or a View) there and "
                          "read it back here (pkc orders the two with a barrier)";
  pki_warning(c->d, at->span, "team-partial-value",
              "'%s' is assigned by %s at line %u, and read here by every thread of the team: "
              "the other threads still hold their own earlier value (on GPUs the team has "
              "many threads, so the result is wrong); %s",
              x->name, who, (unsigned)w->span.line, fix);
}

/* Writer w leaves x on team rank 0 alone: pk.single(pk.PerTeam(m)) (which
 * rank 0 runs), or the then-branch of `if m.team_rank() == 0:` when its
 * else-branch does not assign x. */
static bool from_rank0(const ts_ctx *c, const pki_stmt *w, const pki_var *x) {
  if (w->kind == PKI_S_SINGLE)
    return w->range == PKI_RANGE_PER_TEAM;
  if (w->kind != PKI_S_IF || !rank0(w->cond))
    return false;
  pki_vec other = assigned_outer((ts_ctx *)c, &w->orelse, NULL);
  return !pki_vec_has(&other, x);
}

static pki_stmt *broadcast_stmt(ts_ctx *c, const pki_var *x, pki_span at) {
  pki_expr *mv = pki_new_expr(c->m, PKI_E_VAR, at);
  mv->var = c->member;
  mv->type = c->member->type;
  pki_expr *xv = pki_new_expr(c->m, PKI_E_VAR, at);
  xv->var = (pki_var *)x;
  xv->type = x->type;
  pki_expr *rank = pki_new_expr(c->m, PKI_E_INT, at);
  rank->ival = 0;
  rank->type = pki_int_type;
  pki_expr *call = pki_new_expr_n(c->m, PKI_E_INTRINSIC, at, 3);
  call->intrinsic = PKI_INTRINSIC_TEAM_BROADCAST;
  call->type = pki_void_type;
  call->args[0] = mv;
  call->args[1] = xv;
  call->args[2] = rank;
  pki_stmt *st = pki_new_stmt(c->m, PKI_S_EXPR, at);
  st->value = call;
  return st;
}

/* The first statement after b[k] that every thread runs and that reads x
 * before every thread assigns it again, or NULL. */
static const pki_stmt *partial_reader(const ts_ctx *c, const pki_block *b, int k,
                                      const pki_var *x) {
  const pki_stmt *s = b->stmts[k];
  for (int j = k + 1; j < b->n; j++) {
    const pki_stmt *r = b->stmts[j];
    if (same_threads(s, r))
      continue;
    if (reads_var(r, x))
      return r;
    if (reassigns_all(c, r, x))
      return NULL;
  }
  return NULL;
}

/* Rule 4 over block b of the team body (and the uniform blocks in it): a
 * value left on some threads only, then read by every thread. Left on team
 * rank 0 (pk.single, a rank-0 branch), every thread gets rank 0's value
 * through m.team_broadcast (as on a CPU, where a team is one thread); else
 * the warning. */
static void partial_values(ts_ctx *c, pki_block *b) {
  for (int k = 0; k < b->n; k++) {
    pki_stmt *s = b->stmts[k];
    bool compound = s->kind == PKI_S_IF || s->kind == PKI_S_FOR || s->kind == PKI_S_WHILE;
    if (compound && !divergent(c, s)) {
      partial_values(c, &s->body);
      partial_values(c, &s->orelse);
      continue;
    }
    pki_vec vars = partial_vars(c, s);
    int added = 0;
    for (int i = 0; i < vars.n; i++) {
      const pki_var *x = vars.items[i];
      const pki_stmt *r = partial_reader(c, b, k, x);
      if (!r)
        continue;
      if (c->exits || !from_rank0(c, s, x)) {
        partial_warning(c, s, x, r);
        continue;
      }
      insert_at(c->m->arena, b, k + 1 + added++, broadcast_stmt(c, x, at_start(s->span)));
      pki_note(c->d, s->span, "team-broadcast",
               "pkc inserted %s.team_broadcast(%s, 0) after this %s: only team rank 0 "
               "assigns '%s' here, and every thread of the team reads it at line %u, so "
               "every thread gets rank 0's value (on GPUs the others would keep their own)",
               c->member->name, x->name, s->kind == PKI_S_SINGLE ? "pk.single" : "`if`",
               x->name, (unsigned)r->span.line);
    }
    k += added;
  }
}

/* ------------------------------------------------------------ scatters */

/* The source line holding `at` (or the def at f's span) carries
 * `# pkc: allow possible-race`. */
static bool line_allows(const pki_module *m, uint32_t line) {
  const char *p = m->source, *end = m->source + m->source_len;
  for (uint32_t l = 1; l < line && p < end; p++)
    if (*p == '\n')
      l++;
  const char *e = memchr(p, '\n', (size_t)(end - p));
  size_t n = e ? (size_t)(e - p) : (size_t)(end - p);
  static const char tag[] = "pkc: allow possible-race";
  for (size_t i = 0; i + sizeof tag - 1 <= n; i++)
    if (!memcmp(p + i, tag, sizeof tag - 1))
      return true;
  return false;
}

/* Whether write x of kernel s may race: its indices do not pin every work
 * index injectively, and either one is read from a View (a scatter) or none
 * depends on the work indices other than by identity, offset or an affine
 * function (field[j] in a loop over j, A[i] in an MDRange over (i, j)).
 * Indices computed by division or remainder (strides, i % n) may well be
 * distinct; pkc cannot tell, and says nothing. */
static bool may_race(const pki_access_summary *s, const pki_access *x, unsigned pinned) {
  bool indirect = false, opaque = false;
  for (int k = 0; k < x->rank; k++) {
    const pki_idx *ix = &x->idx[k];
    if (ix->kind == PKI_IDX_IDENTITY || ix->kind == PKI_IDX_OFFSET)
      pinned |= 1u << ix->work;
    if (ix->kind == PKI_IDX_AFFINE)
      pinned |= ix->works; /* i * n + j: distinct while j < n */
    indirect |= ix->kind == PKI_IDX_INDIRECT;
    opaque |= ix->kind == PKI_IDX_NONAFFINE || ix->kind == PKI_IDX_UNKNOWN;
  }
  unsigned all = s->nwork >= 32 ? ~0u : (1u << s->nwork) - 1;
  if ((pinned & all) == all || (opaque && !indirect))
    return false;
  for (int k = 0; k < x->rank; k++)
    if (x->idx[k].kind == PKI_IDX_UNKNOWN)
      return false;
  return true;
}


/* Elements a work item owns: a slot reserved atomically, `slot =
 * pk.atomic_fetch_add(count, [b], 1)` (never reassigned, or the call itself
 * as the index), differs between work items, as does an index using it
 * (`first + slot`, `start[b] + slot`); so does the element of a claim won,
 * `if old == -1:` after `old = pk.atomic_compare_exchange(level, [v], -1, 1)`,
 * at index v. */
typedef struct ts_slots {
  pki_arena *a;
  pki_vec vars;       /* slot locals */
  pki_vec reserves;   /* the atomic each of vars comes from (same order) */
  pki_vec claims;     /* locals `old = pk.atomic_compare_exchange(...)` */
  pki_vec cas;        /* their atomics (same order) */
  pki_span at;        /* the access looked for */
  const pki_expr *access; /* its INDEX node, once found */
  bool found, unique; /* found: the access; unique: one of its indices is a slot */
} ts_slots;

/* A value the same for every work item: a constant, or a parameter or data
 * member (kernels never assign those). */
static bool slot_invariant(const pki_expr *e) {
  e = pki_uncast(e);
  if (e && e->kind == PKI_E_BINARY)
    return slot_invariant(e->args[0]) && slot_invariant(e->args[1]);
  return e && (e->kind == PKI_E_INT ||
               (e->kind == PKI_E_VAR && (e->var->kind == PKI_VAR_PARAM ||
                                         e->var->kind == PKI_VAR_MEMBER)));
}

/* A slot, or a slot shifted by a value the same for every work item
 * (`first + slot`, `slot - 1`): distinct between work items too. */
static bool reserves_slot(const pki_expr *x) {
  return x && x->kind == PKI_E_INTRINSIC && (x->intrinsic == PKI_INTRINSIC_ATOMIC_FETCH_ADD ||
                                             x->intrinsic == PKI_INTRINSIC_ATOMIC_FETCH_SUB);
}

/* The atomic that reserved slot expression e (see slot_like), or NULL. */
static const pki_expr *slot_reserve(const ts_slots *t, const pki_expr *e) {
  e = pki_uncast(e);
  if (!e)
    return NULL;
  if (reserves_slot(e))
    return e;
  for (int i = 0; e->kind == PKI_E_VAR && i < t->vars.n; i++)
    if (t->vars.items[i] == e->var)
      return t->reserves.items[i];
  if (e->kind != PKI_E_BINARY || e->nargs != 2)
    return NULL;
  const pki_expr *r = slot_reserve(t, e->args[0]);
  return r ? r : slot_reserve(t, e->args[1]);
}

/* Indices 1..n-1 of index or atomic nodes a and b are the same expressions
 * (an element's indices, after the View). */
static bool same_indices(const pki_expr *a, const pki_expr *b, int n) {
  for (int k = 1; k < n; k++)
    if (!pki_same_expr(pki_uncast(a->args[k]), pki_uncast(b->args[k])))
      return false;
  return true;
}

/* off is the element of a View at the index of the atomic that reserved
 * slot s (`start[b] + pk.atomic_fetch_add(fill, [b], 1)`): each bucket's
 * offset, from which its slots count (a counting sort's scatter). */
static bool bucket_offset(const ts_slots *t, const pki_expr *off, const pki_expr *s) {
  const pki_expr *r = slot_reserve(t, s);
  off = pki_uncast(off);
  return r && off && off->kind == PKI_E_INDEX && off->nargs == r->nargs - 1 && off->nargs >= 2 &&
         same_indices(off, r, off->nargs);
}

static bool slot_like(const ts_slots *t, const pki_expr *e) {
  e = pki_uncast(e);
  if (!e)
    return false;
  if (reserves_slot(e)) /* items[pk.atomic_fetch_add(count, [0], 1)] = i */
    return true;
  if (e->kind == PKI_E_VAR)
    return pki_vec_has(&t->vars, e->var);
  if (e->kind != PKI_E_BINARY || (e->op != PKI_OP_ADD && e->op != PKI_OP_SUB))
    return false;
  if (e->op == PKI_OP_ADD && ((slot_like(t, e->args[1]) && bucket_offset(t, e->args[0], e->args[1])) ||
                              (slot_like(t, e->args[0]) && bucket_offset(t, e->args[1], e->args[0]))))
    return true;
  return (slot_like(t, e->args[0]) && slot_invariant(e->args[1])) ||
         (e->op == PKI_OP_ADD && slot_invariant(e->args[0]) && slot_like(t, e->args[1]));
}

static void slot_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_slots *t = v->data;
  const pki_expr *x = pki_uncast(s->value);
  if (s->kind != PKI_S_DECL || !s->var || (s->var->uses & PKI_USE_ASSIGNED) || !x)
    return;
  if (slot_like(t, x) && add(t->a, &t->vars, s->var))
    pki_vec_push(t->a, &t->reserves, (void *)slot_reserve(t, x));
  if (x->kind == PKI_E_INTRINSIC && x->intrinsic == PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE &&
      x->nargs >= 4 && add(t->a, &t->claims, s->var))
    pki_vec_push(t->a, &t->cas, (void *)x);
}

static void slot_expr(pki_visitor *v, const pki_expr *e) {
  ts_slots *t = v->data;
  if (e->kind != PKI_E_INDEX || e->span.start_byte != t->at.start_byte ||
      e->span.end_byte != t->at.end_byte)
    return;
  t->found = true;
  t->access = e;
  for (int k = 1; k < e->nargs; k++) {
    t->unique |= slot_like(t, e->args[k]);
  }
}

/* cond is `old == expected` of a claim: the work item whose
 * compare-exchange found the expected value, one per element. That
 * atomic, or NULL. */
static const pki_expr *claim_won(const ts_slots *t, const pki_expr *cond) {
  cond = pki_uncast(cond);
  if (!cond || cond->kind != PKI_E_COMPARE || cond->op != PKI_OP_EQ)
    return NULL;
  for (int side = 0; side < 2; side++) {
    const pki_expr *a = pki_uncast(cond->args[side]), *b = pki_uncast(cond->args[1 - side]);
    for (int i = 0; a && a->kind == PKI_E_VAR && i < t->claims.n; i++) {
      const pki_expr *x = t->cas.items[i];
      if (t->claims.items[i] == a->var &&
          pki_same_expr(b, pki_uncast(x->args[x->nargs - 2])))
        return x;
    }
  }
  return NULL;
}

/* Stores to the element of access e (the same View, the same indices)
 * in b, and how many of them are under an `if` won by a claim at that
 * element (`if old == -1: parent[v] = i` after `old =
 * pk.atomic_compare_exchange(level, [v], -1, 1)`). */
typedef struct ts_claimed {
  const ts_slots *t;
  int stores, won;
  bool under; /* walking the body of a won `if` */
} ts_claimed;

static bool same_element_as(const pki_expr *a, const pki_expr *b) {
  return a && b && a->kind == PKI_E_INDEX && b->kind == PKI_E_INDEX && a->nargs == b->nargs &&
         a->args[0]->kind == PKI_E_VAR && b->args[0]->kind == PKI_E_VAR &&
         a->args[0]->var == b->args[0]->var && same_indices(a, b, a->nargs);
}

/* x, a compare-exchange (view, indices..., expected, desired), is at the
 * element of index node e. */
static bool claims_element(const pki_expr *x, const pki_expr *e) {
  return x && x->nargs - 3 == e->nargs - 1 && same_indices(e, x, e->nargs);
}

static void claimed_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_claimed *c = v->data;
  const pki_expr *e = c->t->access;
  if ((s->kind == PKI_S_ASSIGN || s->kind == PKI_S_AUGASSIGN) && same_element_as(s->target, e)) {
    c->stores++;
    c->won += c->under;
  }
  if (s->kind != PKI_S_IF || c->under || !claims_element(claim_won(c->t, s->cond), e))
    return;
  ts_claimed in = {.t = c->t, .under = true};
  pki_visitor w = {.stmt = claimed_stmt, .data = &in};
  pki_visit_block(&w, &s->body);
  c->won += in.won;
}

static bool slot_index(pki_module *m, const pki_func *f, const pki_access *x) {
  if (x->callee)
    return false;
  ts_slots t = {.a = m->arena, .at = x->span};
  pki_visitor v = {.stmt = slot_stmt, .data = &t};
  pki_visit_func(&v, f);
  v.stmt = NULL;
  v.expr = slot_expr;
  pki_visit_func(&v, f);
  if (t.unique || !t.access || t.claims.n == 0)
    return t.unique;
  ts_claimed c = {.t = &t};
  pki_visitor w = {.stmt = claimed_stmt, .data = &c};
  pki_visit_func(&w, f);
  return c.stores > 0 && c.won == c.stores;
}

/* Work indices an `if i == c:` around the access fixes (c a constant, or a
 * parameter or member, the same for every work item: one work item takes
 * the branch). */
typedef struct ts_guard {
  const pki_func *f;
  pki_span at;
  unsigned pinned;
} ts_guard;

static int work_of(const pki_func *f, const pki_expr *e) {
  e = pki_uncast(e);
  for (int k = 0; e && e->kind == PKI_E_VAR && k < f->nindex && k < 32; k++)
    if (f->index[k] == e->var)
      return k;
  return -1;
}

static unsigned fixed_by(const pki_func *f, const pki_expr *c) {
  int64_t v;
  c = pki_uncast(c);
  if (c && c->kind == PKI_E_LOGICAL && c->op == PKI_OP_AND)
    return fixed_by(f, c->args[0]) | fixed_by(f, c->args[1]);
  if (!c || c->kind != PKI_E_COMPARE || c->op != PKI_OP_EQ)
    return 0;
  int a = work_of(f, c->args[0]), b = work_of(f, c->args[1]);
  if (a >= 0 && (pki_const_int(c->args[1], &v) || slot_invariant(c->args[1])))
    return 1u << a;
  if (b >= 0 && (pki_const_int(c->args[0], &v) || slot_invariant(c->args[0])))
    return 1u << b;
  return 0;
}

static void guard_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_guard *g = v->data;
  if (s->kind != PKI_S_IF || s->body.n == 0)
    return;
  uint32_t lo = s->body.stmts[0]->span.start_byte;
  uint32_t hi = s->body.stmts[s->body.n - 1]->span.end_byte;
  if (g->at.start_byte >= lo && g->at.end_byte <= hi)
    g->pinned |= fixed_by(g->f, s->cond);
}

static unsigned guard_pins(const pki_func *f, const pki_access *x) {
  if (x->callee)
    return 0;
  ts_guard g = {.f = f, .at = x->span};
  pki_visitor v = {.stmt = guard_stmt, .data = &g};
  pki_visit_func(&v, f);
  return g.pinned;
}

/* In a nested pattern's closure, access x races between iterations: every
 * index is the same for all of them (out[e] += ...: every iteration writes
 * that one element), or x updates (reads and writes, h[key[j]] += 1) an
 * element chosen through a View, a histogram. (A plain store through an index
 * read from a View, such as a permutation of the iterations, is left alone:
 * upstream team codes index so.) */
static bool closure_races(const pki_access *x) {
  bool same = x->rank > 0, indirect = false;
  for (int k = 0; k < x->rank; k++) {
    same &= x->idx[k].kind == PKI_IDX_INDEPENDENT;
    indirect |= x->idx[k].kind == PKI_IDX_INDIRECT;
  }
  return same || (indirect && (x->mode & PKI_MEM_READ));
}

/* f: a Range/MDRange kernel, or (pattern not NULL) the closure of a nested
 * parallel_for, whose iterations run on different threads (of a team, or
 * lanes of a vector). */
static void scatters_in(pki_module *m, pki_diags *d, const pki_func *f, const pki_stmt *pattern,
                        const char *pattern_text) {
  if ((!pattern && f->policy == PKI_POLICY_TEAM) || f->runtime_typed || f->nindex < 1 ||
      line_allows(m, f->span.line))
    return;
  const pki_access_summary *s = pki_access_summarize(m, f);
  for (int i = 0; i < s->accesses.n; i++) {
    const pki_access *x = PKI_AT(s->accesses, i, pki_access);
    if (!(x->mode & PKI_MEM_WRITE) || (x->mode & PKI_MEM_ATOMIC) ||
        (x->view->type.traits & PKI_TRAIT_ATOMIC) || !may_race(s, x, guard_pins(f, x)) ||
        slot_index(m, f, x) || (pattern && !closure_races(x)))
      continue;
    pki_span at = x->callee ? x->call : x->span;
    if (line_allows(m, at.line) || line_allows(m, x->span.line))
      continue;
    if (pattern)
      pki_warning(d, at, "possible-race",
                  "'%s' (the closure of the %s at line %u) writes '%s' at %s, which is not "
                  "one element per iteration: the iterations run on different threads, so "
                  "two may write the same element at once (a race; on GPUs updates are "
                  "lost). Use an atomic (pk.atomic_add(%s, [...], value)), a nested "
                  "pk.parallel_reduce for a sum, or if the indices are distinct add the "
                  "comment `# pkc: allow possible-race` to this line",
                  f->name, pattern_text, (unsigned)pattern->span.line, x->view->name,
                  pki_access_where(m->arena, s, x), x->view->name);
    else if (!(x->mode & PKI_MEM_READ)) /* a plain store: a permutation, scan offsets? */
      pki_warning(d, at, "possible-race",
                  "kernel '%s' stores to '%s' at %s, which is not one element per work "
                  "item: where two work items have the same index, one store wins (a race). "
                  "If the indices are distinct (a permutation, a scan's offsets), add the "
                  "comment `# pkc: allow possible-race` to this line",
                  s->name, x->view->name, pki_access_where(m->arena, s, x));
    else
      pki_warning(d, at, "possible-race",
                  "kernel '%s' writes '%s' at %s, which is not one element per work item: "
                  "two work items may write the same element at once (a race; on GPUs "
                  "updates are lost). Use an atomic (pk.atomic_add(%s, [...], value)) or a "
                  "View with pk.Atomic, or if the indices are distinct add the comment "
                  "`# pkc: allow possible-race` to this line",
                  s->name, x->view->name, pki_access_where(m->arena, s, x), x->view->name);
  }
}

static void check_scatters(pki_module *m, pki_diags *d, const pki_func *f) {
  scatters_in(m, d, f, NULL, NULL);
}

/* Histograms in team scratch (the access summary does not follow scratch
 * Views): `h[k] += 1` in a nested parallel_for's closure, h shared by the
 * team and k read from a View, directly or through the closure's locals. */
typedef struct ts_from_view {
  const pki_func *closure;
  const pki_var *find; /* decl_of: the local looked for */
  const pki_expr *value;
  int depth;
  bool hit;
} ts_from_view;

static void decl_of_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_from_view *t = v->data;
  if (s->kind == PKI_S_DECL && s->var == t->find && !t->value)
    t->value = s->value;
}

static void from_view_expr(pki_visitor *v, const pki_expr *e) {
  ts_from_view *t = v->data;
  if (t->hit)
    return;
  if (e->kind == PKI_E_INDEX && e->nargs > 0 && e->args[0]->type.kind == PKI_VIEW) {
    t->hit = true;
    return;
  }
  if (e->kind != PKI_E_VAR || e->var->kind != PKI_VAR_LOCAL || t->depth >= 4)
    return;
  ts_from_view d = {.find = e->var};
  pki_visitor w = {.stmt = decl_of_stmt, .data = &d};
  pki_visit_func(&w, t->closure);
  if (!d.value)
    return;
  ts_from_view in = {.closure = t->closure, .depth = t->depth + 1};
  pki_visitor x = {.expr = from_view_expr, .data = &in};
  pki_visit_expr(&x, d.value);
  t->hit = in.hit;
}

static bool read_from_view(const pki_func *closure, const pki_expr *e) {
  ts_from_view t = {.closure = closure};
  pki_visitor v = {.expr = from_view_expr, .data = &t};
  pki_visit_expr(&v, e);
  return t.hit;
}

/* The atomic that does augmented assignment s to an element of View h
 * with the same result, or PKI_INTRINSIC_COUNT for none (Python's //, %, ** and shifts,
 * or a value whose kind, integer or floating, differs from h's elements). */
static pki_intrinsic atomic_update(const pki_stmt *s, const pki_var *h) {
  pki_kind ek = h->type.elem, vk = s->value ? s->value->type.kind : PKI_VOID;
  if (!(pki_is_int(ek) && pki_is_int(vk)) && !(pki_is_float(ek) && pki_is_float(vk)))
    return PKI_INTRINSIC_COUNT;
  switch (s->op) {
  case PKI_OP_ADD: return PKI_INTRINSIC_ATOMIC_ADD;
  case PKI_OP_SUB: return PKI_INTRINSIC_ATOMIC_SUB;
  case PKI_OP_MUL: return PKI_INTRINSIC_ATOMIC_FETCH_MUL;
  case PKI_OP_BITAND: return pki_is_int(ek) ? PKI_INTRINSIC_ATOMIC_FETCH_AND : PKI_INTRINSIC_COUNT;
  case PKI_OP_BITOR: return pki_is_int(ek) ? PKI_INTRINSIC_ATOMIC_FETCH_OR : PKI_INTRINSIC_COUNT;
  case PKI_OP_BITXOR: return pki_is_int(ek) ? PKI_INTRINSIC_ATOMIC_FETCH_XOR : PKI_INTRINSIC_COUNT;
  default: return PKI_INTRINSIC_COUNT;
  }
}

/* Augmented assignment s (`h[k] op= v`) becomes the expression statement
 * `pk.atomic_<op>(h, [k], v)`. */
static void make_atomic(pki_module *m, pki_stmt *s, pki_intrinsic atomic) {
  const pki_expr *t = s->target;
  pki_expr *call = pki_new_expr_n(m, PKI_E_INTRINSIC, s->span, t->nargs + 1);
  call->intrinsic = atomic;
  bool fetch = atomic != PKI_INTRINSIC_ATOMIC_ADD && atomic != PKI_INTRINSIC_ATOMIC_SUB;
  call->type = fetch ? t->type : pki_void_type;
  for (int k = 0; k < t->nargs; k++)
    call->args[k] = t->args[k];
  call->args[t->nargs] = s->value;
  s->kind = PKI_S_EXPR;
  s->target = NULL;
  s->op = PKI_OP_NONE;
  s->value = call;
}

typedef struct ts_nested_scatter {
  ts_ctx *c;
  const pki_stmt *pattern; /* scratch_hist_stmt: the nested pattern walked */
} ts_nested_scatter;

/* Update s of View h in the closure of nested pattern n->pattern becomes
 * `atomic`, with note "team-atomic" (fmt: the closure, the pattern, its
 * line, h, the atomic's operation, in that order). */
static void made_atomic(ts_nested_scatter *n, const pki_stmt *s, const pki_var *h,
                        pki_intrinsic atomic, const char *fmt) {
  pki_note(n->c->d, s->span, "team-atomic", fmt, n->pattern->closure->name,
           what(n->c->m->arena, n->pattern), (unsigned)n->pattern->span.line, h->name,
           pki_intrinsics[atomic].py_name + strlen("pk.atomic_"));
  make_atomic(n->c->m, (pki_stmt *)s, atomic); /* the IR the pass owns (rule 2 inserts too) */
}

typedef struct ts_uniform {
  const ts_ctx *c;
  const pki_func *closure;
  bool varies;
} ts_uniform;

static void uniform_expr(pki_visitor *v, const pki_expr *e) {
  ts_uniform *u = v->data;
  if (e->kind == PKI_E_VAR) {
    bool inner = false; /* the closure's index, its locals and loop variables */
    for (int i = 0; i < u->closure->nindex; i++)
      inner |= u->closure->index[i] == e->var;
    for (int i = 0; i < u->closure->nlocals; i++)
      inner |= u->closure->locals[i] == e->var;
    u->varies |= inner || pki_vec_has(&u->c->tainted, e->var);
  } else if (e->kind == PKI_E_INDEX || e->kind == PKI_E_CALL || e->kind == PKI_E_INTRINSIC) {
    u->varies = true; /* read from a View (the histogram rule), a call, team_rank() */
  }
}

/* Index e of an update in closure is the same element for every iteration
 * and every thread: it names only literals and team-wide values. */
static bool uniform_index(const ts_ctx *c, const pki_func *closure, const pki_expr *e) {
  ts_uniform u = {.c = c, .closure = closure};
  pki_visitor v = {.expr = uniform_expr, .data = &u};
  pki_visit_expr(&v, e);
  return !u.varies;
}

/* An update of one element by every iteration of a nested parallel_for
 * (`s[0] += x`, `total[r] += x` with r the league rank): the iterations run
 * on different threads (or vector lanes), so it is a race, on a team's
 * scratch or on a View alike: made atomic (note "team-atomic"). */
static bool one_element_update(ts_nested_scatter *n, const pki_stmt *s, const pki_expr *t,
                               const pki_var *h) {
  for (int k = 1; k < t->nargs; k++)
    if (!uniform_index(n->c, n->pattern->closure, t->args[k]))
      return false;
  pki_intrinsic atomic = atomic_update(s, h);
  if (atomic == PKI_INTRINSIC_COUNT)
    return false; /* (the View's possible-race warning stays) */
  made_atomic(n, s, h, atomic,
              "every iteration of '%s' (the closure of the %s at line %u) updates the same "
              "element of '%s', on different threads: the update is made atomic (as "
              "pk.atomic_%s would); a nested pk.parallel_reduce adds without atomics");
  return true;
}

/* e is the league rank: m.league_rank(), or a variable declared as it and
 * never assigned again. */
static bool league_rank(const ts_ctx *c, const pki_expr *e) {
  e = pki_uncast(e);
  return is_intr(e, PKI_INTRINSIC_LEAGUE_RANK) ||
         (e->kind == PKI_E_VAR && pki_vec_has(&c->league_vars, e->var) &&
          !pki_vec_has(&c->changing, e->var));
}

typedef struct ts_league {
  const ts_ctx *c;
  bool found;
} ts_league;

static void league_expr(pki_visitor *v, const pki_expr *e) {
  ts_league *l = v->data;
  l->found |= league_rank(l->c, e);
}

/* e mentions the league rank anywhere (2 * r, r // 2 too). */
static bool mentions_league(const ts_ctx *c, const pki_expr *e) {
  ts_league l = {.c = c};
  pki_visitor v = {.expr = league_expr, .data = &l};
  pki_visit_expr(&v, e);
  return l.found;
}

/* How the terms of an index joined by + and - relate to the teams and the
 * iterations of a closure. */
typedef struct ts_terms {
  int league; /* the league rank */
  int step;   /* the closure's own index (one element per iteration step) */
  int other;  /* anything else that changes between iterations (2 * k, k * L) */
} ts_terms;

/* The terms of index e (a pattern of one expression, not a walk of the IR). */
static void additive_terms(const ts_ctx *c, const pki_func *closure, const pki_expr *e,
                           ts_terms *t) {
  e = pki_uncast(e);
  if ((e->kind == PKI_E_BINARY && (e->op == PKI_OP_ADD || e->op == PKI_OP_SUB)) ||
      (e->kind == PKI_E_UNARY && (e->op == PKI_OP_NEG || e->op == PKI_OP_POS))) {
    for (int k = 0; k < e->nargs; k++)
      additive_terms(c, closure, e->args[k], t);
    return;
  }
  if (league_rank(c, e))
    t->league++;
  else if (e->kind == PKI_E_VAR && closure->nindex == 1 && e->var == closure->index[0])
    t->step++;
  else if (!uniform_index(c, closure, e))
    t->other++;
}

/* Target t (an element of a shared View) in the closure of n->pattern is
 * reached by neighbouring teams at once: one index is the league rank plus
 * (or minus) the closure's index and team-wide values (out[r + k]: team r's
 * k = 1 is team r + 1's k = 0), and no other index tells the teams apart.
 * Other strides (out[r + k * L], teams interleaved) are left alone. */
static bool teams_overlap(const ts_nested_scatter *n, const pki_expr *t) {
  int shared = 0;
  for (int k = 1; k < t->nargs; k++) {
    ts_terms terms = {0};
    additive_terms(n->c, n->pattern->closure, t->args[k], &terms);
    if (terms.league == 1 && terms.step > 0 && !terms.other)
      shared++;
    else if (mentions_league(n->c, t->args[k]) ||
             !uniform_index(n->c, n->pattern->closure, t->args[k]))
      return false;
  }
  return shared == 1;
}

/* Rule 3 between teams: an update of such an element is made atomic (note
 * "team-atomic"), a plain store warns ("possible-race"). */
static void interteam_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_nested_scatter *n = v->data;
  const pki_expr *t = s->kind == PKI_S_AUGASSIGN || s->kind == PKI_S_ASSIGN ? s->target : NULL;
  if (!t || t->kind != PKI_E_INDEX || t->nargs < 2 || t->args[0]->kind != PKI_E_VAR)
    return;
  const pki_var *h = t->args[0]->var;
  if (h->type.kind != PKI_VIEW || h->type.space == PKI_SPACE_SCRATCH ||
      (h->type.traits & PKI_TRAIT_ATOMIC) || pki_vec_has(&n->c->private_views, h) ||
      line_allows(n->c->m, s->span.line) || line_allows(n->c->m, n->pattern->closure->span.line) ||
      !teams_overlap(n, t))
    return;
  pki_intrinsic atomic = s->kind == PKI_S_AUGASSIGN ? atomic_update(s, h) : PKI_INTRINSIC_COUNT;
  if (atomic != PKI_INTRINSIC_COUNT) {
    made_atomic(n, s, h, atomic,
                "'%s' (the closure of the %s at line %u) updates '%s' at the league rank "
                "plus an index that changes over its iterations: neighbouring teams update "
                "the same elements at once (team r's next element is team r + 1's first): "
                "the update is made atomic (as pk.atomic_%s would)");
    return;
  }
  pki_warning(n->c->d, s->span, "possible-race",
              "'%s' (the closure of the %s at line %u) %s '%s' at the league rank plus an "
              "index that changes over its iterations: neighbouring teams reach the same "
              "elements at once (team r's next element is team r + 1's first), so %s. Use "
              "an atomic (pk.atomic_add(%s, [...], value)), index the teams apart (r * n + "
              "k), or if the elements are distinct add the comment `# pkc: allow "
              "possible-race` to this line",
              n->pattern->closure->name, what(n->c->m->arena, n->pattern),
              (unsigned)n->pattern->span.line,
              s->kind == PKI_S_ASSIGN ? "stores to" : "updates", h->name,
              s->kind == PKI_S_ASSIGN ? "one store wins (a race)"
                                      : "updates are lost (a race)",
              h->name);
}

static void scratch_hist_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_nested_scatter *n = v->data;
  const pki_expr *t = s->kind == PKI_S_AUGASSIGN ? s->target : NULL;
  if (!t || t->kind != PKI_E_INDEX || t->nargs < 2 || t->args[0]->kind != PKI_E_VAR)
    return;
  const pki_var *h = t->args[0]->var;
  if (pki_vec_has(&n->c->private_views, h) || h->type.kind != PKI_VIEW ||
      line_allows(n->c->m, s->span.line) || line_allows(n->c->m, n->pattern->closure->span.line))
    return;
  if (one_element_update(n, s, t, h) || h->type.space != PKI_SPACE_SCRATCH)
    return;
  bool indirect = false;
  for (int k = 1; k < t->nargs; k++)
    indirect |= read_from_view(n->pattern->closure, t->args[k]);
  if (!indirect)
    return;
  pki_intrinsic atomic = atomic_update(s, h);
  if (atomic == PKI_INTRINSIC_COUNT) {
    pki_warning(n->c->d, s->span, "possible-race",
                "'%s' (the closure of the %s at line %u) updates team scratch '%s' at an "
                "index read from a View: two iterations with the same index update one "
                "element at once on different threads (a race; on GPUs updates are lost). "
                "Use a pk.atomic_fetch_* call, or if the indices are distinct add the comment "
                "`# pkc: allow possible-race` to this line",
                n->pattern->closure->name, what(n->c->m->arena, n->pattern),
                (unsigned)n->pattern->span.line, h->name);
    return;
  }
  made_atomic(n, s, h, atomic,
              "'%s' (the closure of the %s at line %u) updates team scratch '%s' at an index "
              "read from a View, where two iterations on different threads may meet: the "
              "update is made atomic (as pk.atomic_%s would); add `# pkc: allow "
              "possible-race` to this line if the indices are distinct");
}

static void nested_scatter_stmt(pki_visitor *v, const pki_stmt *s) {
  ts_nested_scatter *n = v->data;
  if (s->kind != PKI_S_NESTED || s->pattern != PKI_PATTERN_FOR || !s->closure)
    return;
  ts_nested_scatter in = {.c = n->c, .pattern = s};
  pki_visitor w = {.stmt = scratch_hist_stmt, .data = &in};
  pki_visit_block(&w, &s->closure->body); /* the updates made atomic: no warning then */
  pki_visitor x = {.stmt = interteam_stmt, .data = &in};
  pki_visit_block(&x, &s->closure->body);
  scatters_in(n->c->m, n->c->d, s->closure, s, what(n->c->m->arena, s));
}

/* Rule 3 in a team body: the closures of its nested parallel_for patterns. */
static void check_team_scatters(ts_ctx *c) {
  ts_nested_scatter n = {.c = c};
  pki_visitor v = {.stmt = nested_scatter_stmt, .closures = true, .data = &n};
  pki_visit_block(&v, &c->root->body);
}

/* ---------------------------------------------------------------- entry */

static bool has_error_in(const pki_diags *d, const pki_entity *e) {
  for (int i = 0; i < d->n; i++)
    if (d->items[i].severity == PKI_SEV_ERROR && pki_span_in_entity(e, d->items[i].span))
      return true;
  return false;
}

static void team_body(pki_module *m, pki_diags *d, pki_func *f) {
  if (!f || f->runtime_typed || !f->is_workunit || f->policy != PKI_POLICY_TEAM ||
      f->nindex != 1 || !f->index[0] || f->index[0]->type.kind != PKI_TEAM_MEMBER)
    return;
  ts_ctx c = {.m = m, .d = d, .root = f, .member = f->index[0]};
  find_private_views(&c);
  compute_taint(&c);
  find_changing(&c);
  find_exits(&c);
  int errors = d->errors;
  check_closure_collectives(&c);
  fix_divergence(&c, &f->body, NULL);
  check_early_return(&c);
  if (d->errors == errors) {
    barriers(&c, &f->body, (ts_state){0});
    partial_values(&c, &f->body);
    check_team_scatters(&c);
  }
}

int pki_team_sync(pki_module *m, pki_diags *d) {
  int errors = d->errors;
  for (int i = 0; i < m->nentities; i++) {
    pki_entity *e = m->entities[i];
    if (!e || has_error_in(d, e))
      continue;
    for (int j = 0; j < e->nfuncs; j++) {
      pki_func *f = e->funcs[j];
      if (!f || f->runtime_typed)
        continue;
      team_body(m, d, f);
      if (f->is_workunit && !f->is_closure)
        check_scatters(m, d, f);
      for (int k = 0; f->is_main && k < f->nclosures; k++)
        if (f->closures[k] && f->closures[k]->is_workunit) {
          team_body(m, d, f->closures[k]);
          check_scatters(m, d, f->closures[k]);
        }
    }
  }
  return d->errors - errors;
}
