/*
 * fuse_plan.c - which dispatches of each @pk.main run as one kernel
 * (kernel fusion ahead of time, the static chains of a workload).
 *
 * Candidate chains: consecutive dispatches of workunits of the workload in
 * one block (nothing between them, so their bounds see the same values),
 * and `for` loops whose body is only such dispatches (the repeated chain).
 * A chain is cut where pki_fuse_check refuses the next kernel (a kernel
 * reading an earlier reduction's result, ...) or where fusing would save
 * nothing. A fused kernel may hold several reductions (sum, prod, min, max):
 * it computes all results in one pass (Kokkos' combined reducers), and
 * reductions that share no View still fuse over the same bounds (one launch
 * and one wait for the results instead of several). Every candidate gets a
 * note, fused or not, with the rule.
 */
#include <string.h>

#include "access.h"

typedef struct plan_ctx {
  pki_module *m;
  const pki_func *main;
  pki_fusion_plan *plan;
  pki_vec sums; /* pki_access_summary *, one per workunit seen */
} plan_ctx;

static const pki_access_summary *summary(plan_ctx *c, const pki_func *f) {
  return pki_access_summary_cached(c->m, &c->sums, f);
}

/* A dispatch that can take part in a fused kernel: a range or MDRange
 * parallel_for / parallel_reduce of a workunit of the workload. */
static bool fusable(const plan_ctx *c, const pki_stmt *s) {
  const pki_func *f = s->closure;
  if (s->kind != PKI_S_DISPATCH || !f || !f->is_workunit || f->is_closure ||
      f->owner != c->main->owner || s->range == PKI_POLICY_TEAM)
    return false;
  if (s->pattern == PKI_PATTERN_FOR)
    return true;
  return s->pattern == PKI_PATTERN_REDUCE && !pki_reducer_has_fields(f->reducer);
}

static bool is_reduce(const pki_stmt *s) { return s->pattern == PKI_PATTERN_REDUCE; }

static int count_reductions(const pki_stmt *const *stmts, int n) {
  int nred = 0;
  for (int k = 0; k < n; k++)
    nred += is_reduce(stmts[k]);
  return nred;
}

bool pki_same_expr(const pki_expr *a, const pki_expr *b) {
  if (!a || !b)
    return a == b;
  if (a->kind != b->kind || a->nargs != b->nargs || a->kind == PKI_E_CALL ||
      a->kind == PKI_E_CONSTRUCT || a->kind == PKI_E_INDEX) /* View elements may change */
    return false;
  switch (a->kind) {
  case PKI_E_INT: case PKI_E_BOOL: if (a->ival != b->ival) return false; break;
  case PKI_E_FLOAT: if (a->fval != b->fval) return false; break;
  case PKI_E_VAR: if (a->var != b->var) return false; break;
  case PKI_E_UNARY: case PKI_E_BINARY: case PKI_E_COMPARE: case PKI_E_LOGICAL:
    if (a->op != b->op) return false;
    break;
  case PKI_E_CAST: if (!pki_type_eq(a->type, b->type)) return false; break;
  case PKI_E_EXTENT: if (a->ival != b->ival) return false; break;
  case PKI_E_BUILTIN: if (a->builtin != b->builtin) return false; break;
  case PKI_E_INTRINSIC: if (a->intrinsic != b->intrinsic) return false; break;
  case PKI_E_FIELD: if (a->var != b->var) return false; break;
  default: break;
  }
  for (int i = 0; i < a->nargs; i++)
    if (!pki_same_expr(a->args[i], b->args[i]))
      return false;
  return true;
}

/* The bound arguments of a dispatch: RANGE (begin, end) or (end); MDRANGE
 * begin and end lists (a tile list after them changes no result). */
static int nbounds(const pki_stmt *s) {
  return s->range == PKI_POLICY_MDRANGE && s->nargs > 2 ? 2 : s->nargs;
}

static bool same_bounds(const pki_stmt *a, const pki_stmt *b) {
  if (nbounds(a) != nbounds(b) || a->range != b->range)
    return false;
  for (int i = 0; i < nbounds(a); i++)
    if (!pki_same_expr(a->args[i], b->args[i]))
      return false;
  return true;
}

static bool literal(const pki_expr *e) { return e && e->kind == PKI_E_INT; }

/* Bounds that can never be equal: integer literals that differ. */
static bool bounds_differ(const pki_stmt *a, const pki_stmt *b) {
  if (nbounds(a) != nbounds(b) || a->range != b->range)
    return true;
  for (int i = 0; i < nbounds(a); i++) {
    const pki_expr *x = a->args[i], *y = b->args[i];
    if (x && y && x->kind == PKI_E_LIST && y->kind == PKI_E_LIST) {
      for (int k = 0; k < x->nargs && k < y->nargs; k++)
        if (literal(x->args[k]) && literal(y->args[k]) && x->args[k]->ival != y->args[k]->ival)
          return true;
    } else if (literal(x) && literal(y) && x->ival != y->ival) {
      return true;
    }
  }
  return false;
}

static int mdrank(const pki_stmt *s) {
  return s->range == PKI_POLICY_MDRANGE && s->nargs > 0 && s->args[0] ? s->args[0]->nargs : 1;
}

/* ---- does an expression read a variable (through the one IR visitor) */
typedef struct reads_ctx { const pki_var *var; bool hit, element; } reads_ctx;

static void reads_expr(pki_visitor *v, const pki_expr *e) {
  reads_ctx *r = v->data;
  if ((e->kind == PKI_E_VAR || e->kind == PKI_E_FIELD) && e->var == r->var)
    r->hit = true;
  if (e->kind == PKI_E_INDEX)
    r->element = true;
}

static bool stmt_bounds_read(const pki_stmt *s, const pki_var *var) {
  reads_ctx r = {var, false, false};
  pki_visitor v = {.expr = reads_expr, .data = &r};
  for (int i = 0; i < s->nargs; i++)
    pki_visit_expr(&v, s->args[i]);
  return r.hit;
}

/* Bounds that read a View element: kernels before may change it. */
static bool bounds_read_view(const pki_stmt *s) {
  reads_ctx r = {NULL, false, false};
  pki_visitor v = {.expr = reads_expr, .data = &r};
  for (int i = 0; i < s->nargs; i++)
    pki_visit_expr(&v, s->args[i]);
  return r.element;
}

/* The kernels of stmts[0..n-1] as pki_fuse_check takes them. */
static pki_fuse_kernel *kernels(plan_ctx *c, const pki_stmt **stmts, int n) {
  pki_arena *a = c->m->arena;
  pki_fuse_kernel *ks = pki_alloc(a, sizeof *ks * (size_t)n);
  for (int k = 0; k < n; k++) {
    const pki_stmt *s = stmts[k];
    const pki_access_summary *sum = summary(c, s->closure);
    pki_fuse_kernel *fk = &ks[k];
    fk->sum = sum;
    fk->policy = (pki_policy)s->range;
    fk->rank = mdrank(s);
    fk->bounds = k == 0 || same_bounds(s, stmts[0]) ? PKI_BOUNDS_SAME
                 : bounds_differ(s, stmts[0])          ? PKI_BOUNDS_DIFFERENT
                                                       : PKI_BOUNDS_UNKNOWN;
    pki_fuse_view *vs = pki_alloc(a, sizeof *vs * (size_t)(sum->views.n ? sum->views.n : 1));
    for (int i = 0; i < sum->views.n; i++) {
      const pki_view_use *u = PKI_AT(sum->views, i, pki_view_use);
      vs[i].view = u->view;
      vs[i].identity = u->view->id; /* members: distinct unless they overlap (run-time check) */
    }
    fk->views = vs;
    fk->nviews = sum->views.n;
    pki_fuse_input *in = pki_alloc(a, sizeof *in * (size_t)(k ? k : 1));
    int nin = 0;
    for (int p = 0; p < k; p++)
      if (stmts[p]->target && stmts[p]->target->kind == PKI_E_VAR && stmts[p]->target->var)
        in[nin++] = (pki_fuse_input){stmts[p]->target->var, p};
    fk->inputs = in;
    fk->ninputs = nin;
  }
  return ks;
}

static void note(plan_ctx *c, pki_span at, bool fused, const char *text, const char *rule) {
  pki_fusion_note *n = pki_alloc(c->m->arena, sizeof *n);
  *n = (pki_fusion_note){c->main, at, fused, text, rule};
  pki_vec_push(c->m->arena, &c->plan->notes, n);
}

static const char *kernel_list(plan_ctx *c, const pki_stmt **stmts, int n) {
  const char *s = "";
  for (int k = 0; k < n; k++)
    s = pki_sprintf(c->m->arena, "%s%s'%s'", s, k ? (k == n - 1 ? " and " : ", ") : "",
                    stmts[k]->closure->name);
  return s;
}

/* View members the group touches that might overlap: same element type,
 * one of the two written. */
static void alias_pairs(plan_ctx *c, pki_fused *g) {
  pki_vec uses = {0};
  for (int k = 0; k < g->n; k++) {
    const pki_access_summary *s = summary(c, g->stmts[k]->closure);
    for (int i = 0; i < s->views.n; i++) {
      const pki_view_use *u = PKI_AT(s->views, i, pki_view_use);
      bool seen = false;
      for (int j = 0; j < uses.n && !seen; j++) {
        pki_view_use *w = PKI_AT(uses, j, pki_view_use);
        if (w->view == u->view) {
          w->mode |= u->mode;
          seen = true;
        }
      }
      if (!seen) {
        pki_view_use *w = pki_alloc(c->m->arena, sizeof *w);
        *w = *u;
        pki_vec_push(c->m->arena, &uses, w);
      }
    }
  }
  const pki_var **pairs = pki_alloc(c->m->arena, sizeof *pairs * (size_t)(uses.n * uses.n + 1));
  int n = 0;
  for (int i = 0; i < uses.n; i++)
    for (int j = i + 1; j < uses.n; j++) {
      const pki_view_use *a = PKI_AT(uses, i, pki_view_use), *b = PKI_AT(uses, j, pki_view_use);
      if (a->view->kind != PKI_VAR_MEMBER || b->view->kind != PKI_VAR_MEMBER ||
          !((a->mode | b->mode) & PKI_MEM_WRITE))
        continue;
      pairs[n++] = a->view;
      pairs[n++] = b->view;
    }
  g->views = pairs;
  g->nviews = n;
}

static pki_fused *new_group(plan_ctx *c, const pki_stmt **stmts, int n, const pki_stmt *loop) {
  pki_fused *g = pki_alloc(c->m->arena, sizeof *g);
  g->id = c->plan->groups.n;
  g->main = c->main;
  g->stmts = pki_alloc(c->m->arena, sizeof *g->stmts * (size_t)n);
  for (int k = 0; k < n; k++)
    g->stmts[k] = stmts[k];
  g->n = n;
  g->loop = loop;
  for (int k = 1; k < n; k++)
    g->bounds_at_run_time |= !same_bounds(stmts[k], stmts[0]);
  for (int k = 0; k < n; k++)
    g->scatter |= pki_scatters(summary(c, stmts[k]->closure));
  alias_pairs(c, g);
  pki_vec_push(c->m->arena, &c->plan->groups, g);
  return g;
}

/* Profit: `next` accesses some View at the same point as a kernel of the
 * group (a value fusion keeps in cache or registers). Kernels that share
 * nothing gain nothing from fusion and may lose (register pressure, a
 * worse access order on GPUs: mvt's two products). */
static bool shares_a_point(plan_ctx *c, const pki_stmt **group, int n, const pki_stmt *next) {
  const pki_access_summary *sn = summary(c, next->closure);
  for (int k = 0; k < n; k++) {
    const pki_access_summary *sg = summary(c, group[k]->closure);
    for (int i = 0; i < sn->accesses.n; i++)
      for (int j = 0; j < sg->accesses.n; j++) {
        const pki_access *x = PKI_AT(sn->accesses, i, pki_access);
        const pki_access *y = PKI_AT(sg->accesses, j, pki_access);
        if (x->view == y->view && pki_same_point(x, y))
          return true;
      }
  }
  return false;
}

/* Profit of another kind: reduction `next` joins a group that has a
 * reduction, over the same bounds: one launch and one wait for the results
 * instead of two (md_lj's kinetic and potential energies read no common
 * View). */
static bool reductions_share_launch(const pki_stmt **group, int n, const pki_stmt *next) {
  return is_reduce(next) && count_reductions(group, n) && same_bounds(next, group[0]);
}

/* Why kernel `next` cannot join group[0..n-1], or NULL if it can. */
static const char *refusal(plan_ctx *c, const pki_stmt **group, int n, const pki_stmt *next,
                           const char **rule) {
  for (int k = 0; k < n; k++)
    if (group[k]->target && group[k]->target->kind == PKI_E_VAR &&
        stmt_bounds_read(next, group[k]->target->var)) {
      *rule = "result";
      return pki_sprintf(c->m->arena, "not fused: the bounds of '%s' (line %u) read '%s', "
                         "the result of the reduction '%s'", next->closure->name,
                         (unsigned)next->span.line, group[k]->target->var->name,
                         group[k]->closure->name);
    }
  if (bounds_read_view(next)) {
    *rule = "bounds";
    return pki_sprintf(c->m->arena, "not fused: the bounds of '%s' (line %u) read a View "
                       "element, which the kernels before it may change",
                       next->closure->name, (unsigned)next->span.line);
  }
  for (int k = 0; k <= n; k++) {
    const pki_stmt *s = k < n ? group[k] : next;
    if (summary(c, s->closure)->random) {
      *rule = "random";
      return pki_sprintf(c->m->arena, "not fused: kernel '%s' (line %u) draws random "
                         "numbers, whose order fusion would change", s->closure->name,
                         (unsigned)s->closure->span.line);
    }
  }
  const pki_stmt **all = pki_alloc(c->m->arena, sizeof *all * (size_t)(n + 1));
  for (int k = 0; k < n; k++)
    all[k] = group[k];
  all[n] = next;
  pki_fuse_kernel *ks = kernels(c, all, n + 1);
  pki_fuse_decision d = pki_fuse_check(ks, n + 1);
  if (d.verdict == PKI_FUSE_ILLEGAL) {
    *rule = pki_fuse_rule_name(d.rule);
    return pki_fuse_reason(c->m->arena, ks, n + 1, &d);
  }
  if (shares_a_point(c, group, n, next) || reductions_share_launch(group, n, next))
    return NULL;
  *rule = "profit";
  bool reductions = is_reduce(next) && count_reductions(group, n);
  return pki_sprintf(c->m->arena, "not fused: kernel '%s' (line %u) accesses no View at the "
                     "same point as %s, so fusing would save no memory traffic%s",
                     next->closure->name, (unsigned)next->closure->span.line,
                     kernel_list(c, group, n),
                     reductions ? " (reductions that share no View fuse only over the same "
                                  "bounds, to share one launch)" : "");
}

static void plan_residency(plan_ctx *c, pki_fused *g);

static void close_group(plan_ctx *c, const pki_stmt **group, int n) {
  if (n < 2)
    return;
  pki_fused *g = new_group(c, group, n, NULL);
  plan_residency(c, g);
  int nred = count_reductions(group, n);
  g->why = pki_sprintf(c->m->arena, "fused: %s (lines %u-%u) run as one kernel%s%s%s",
                       kernel_list(c, group, n), (unsigned)group[0]->span.line,
                       (unsigned)group[n - 1]->span.line,
                       nred > 1 ? pki_sprintf(c->m->arena, " computing their %d reductions "
                                              "in one pass", nred) : "",
                       g->bounds_at_run_time ? " when their bounds are equal at run time" : "",
                       g->scatter ? PKI_SCATTER_NOTE : "");
  note(c, group[0]->span, true, g->why, "ok");
}

/* A run of consecutive fusable dispatches: greedy groups. */
static void plan_run(plan_ctx *c, const pki_stmt **run, int n) {
  int start = 0;
  for (int k = 1; k < n; k++) {
    const char *rule = NULL;
    const char *why = refusal(c, run + start, k - start, run[k], &rule);
    if (!why)
      continue;
    note(c, run[k]->span, false, why, rule);
    close_group(c, run + start, k - start);
    start = k;
  }
  close_group(c, run + start, n - start);
}

static bool is_one(const pki_expr *e) { return !e || (e->kind == PKI_E_INT && e->ival == 1); }

/* The View members of repeated group g that every link accesses only at the
 * work point (kept in registers over the repetitions). */
static void plan_residency(plan_ctx *c, pki_fused *g) {
  const pki_func **fs = pki_alloc(c->m->arena, sizeof *fs * (size_t)g->n);
  for (int k = 0; k < g->n; k++)
    fs[k] = g->stmts[k]->closure;
  if (!pki_links_inlinable(fs, g->n, g->main->owner))
    return;
  const pki_entity *e = g->main->owner;
  g->resident = pki_alloc(c->m->arena, sizeof *g->resident * (size_t)(e->nmembers + 1));
  g->resident_mode = pki_alloc(c->m->arena, sizeof *g->resident_mode * (size_t)(e->nmembers + 1));
  g->resident_stored = pki_alloc(c->m->arena, sizeof *g->resident_stored * (size_t)(e->nmembers + 1));
  for (int i = 0; i < e->nmembers; i++) {
    const pki_var *v = e->members[i];
    if (v->type.kind != PKI_VIEW)
      continue;
    bool ok = true;
    unsigned mode = 0;
    for (int k = 0; k < g->n && ok; k++) {
      const pki_access_summary *s = summary(c, fs[k]);
      const pki_view_use *u = pki_access_view(s, v);
      bool whole;
      mode |= u ? u->mode : 0;
      ok = pki_point_only(s, fs[k], v, &whole); /* extents read the member itself */
    }
    if (mode && ok) {
      pki_first_touch t = PKI_TOUCH_NONE;
      for (int k = 0; k < g->n && t == PKI_TOUCH_NONE; k++)
        t = pki_first_touch_of(fs[k], v);
      g->resident_stored[g->nresident] = t == PKI_TOUCH_STORE;
      g->resident_mode[g->nresident] = mode;
      g->resident[g->nresident++] = v;
    }
  }
}

/* `for r in range(...)` whose body is only fusable dispatches of one group
 * that may repeat per point: [G, G] legal, no reduction, bounds free of r. */
static bool plan_repeat(plan_ctx *c, const pki_stmt *loop) {
  const pki_block *b = &loop->body;
  if (!b->n || !is_one(loop->step))
    return false;
  for (int k = 0; k < b->n; k++)
    if (!fusable(c, b->stmts[k]) || is_reduce(b->stmts[k]) ||
        stmt_bounds_read(b->stmts[k], loop->var))
      return false;
  for (int k = 0; k < b->n; k++) {
    const pki_stmt *s = b->stmts[k];
    if (bounds_read_view(s) || summary(c, s->closure)->random) {
      note(c, loop->span, false,
           pki_sprintf(c->m->arena, "not fused: the loop of line %u repeats '%s', %s",
                       (unsigned)loop->span.line, s->closure->name,
                       bounds_read_view(s) ? "whose bounds read a View element the loop "
                                             "may change"
                                           : "which draws random numbers (fusion would "
                                             "change their order)"),
           bounds_read_view(s) ? "bounds" : "random");
      return false;
    }
  }
  const pki_stmt **twice = pki_alloc(c->m->arena, sizeof *twice * (size_t)(2 * b->n));
  for (int k = 0; k < 2 * b->n; k++)
    twice[k] = b->stmts[k % b->n];
  pki_fuse_kernel *ks = kernels(c, twice, 2 * b->n);
  pki_fuse_decision d = pki_fuse_check(ks, 2 * b->n);
  if (d.verdict == PKI_FUSE_ILLEGAL) {
    note(c, loop->span, false, pki_fuse_reason(c->m->arena, ks, 2 * b->n, &d),
         pki_fuse_rule_name(d.rule));
    return false;
  }
  pki_fused *g = new_group(c, (const pki_stmt **)b->stmts, b->n, loop);
  plan_residency(c, g);
  g->why = pki_sprintf(c->m->arena, "fused: %s repeated by the loop of line %u run as one "
                       "kernel with an inner loop%s%s", kernel_list(c, g->stmts, g->n),
                       (unsigned)loop->span.line,
                       g->bounds_at_run_time ? " when their bounds are equal at run time" : "",
                       g->scatter ? PKI_SCATTER_NOTE : "");
  note(c, loop->span, true, g->why, "ok");
  return true;
}

static void plan_block(plan_ctx *c, const pki_block *b) {
  for (int i = 0; i < b->n;) {
    const pki_stmt *s = b->stmts[i];
    if (fusable(c, s)) {
      int j = i;
      while (j < b->n && fusable(c, b->stmts[j]))
        j++;
      plan_run(c, (const pki_stmt **)b->stmts + i, j - i);
      i = j;
      continue;
    }
    if (s->kind == PKI_S_FOR && plan_repeat(c, s)) {
      i++;
      continue;
    }
    if (s->kind == PKI_S_FOR || s->kind == PKI_S_WHILE || s->kind == PKI_S_IF) {
      plan_block(c, &s->body);
      plan_block(c, &s->orelse);
    }
    i++;
  }
}

static bool span_before(pki_span a, pki_span b) {
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* Notes in source order (a refusal is found before the group it ends). */
static void sort_notes(pki_vec *v) {
  for (int i = 1; i < v->n; i++)
    for (int k = i; k > 0; k--) {
      pki_fusion_note *a = v->items[k - 1], *b = v->items[k];
      if (!span_before(b->at, a->at))
        break;
      v->items[k - 1] = b;
      v->items[k] = a;
    }
}

/* The names fused kernels add to a workload (pkc_fused<N>_tag, ..._reps,
 * ..._begin, ..._end) must not be the entity's own: then nothing is fused. */
static bool uses_fusion_names(const pki_entity *e) {
  for (int i = 0; i < e->nmembers; i++)
    if (!strncmp(e->members[i]->name, "pkc_fused", 9))
      return true;
  for (int i = 0; i < e->nfuncs; i++)
    if (e->funcs[i] && !strncmp(e->funcs[i]->name, "pkc_fused", 9))
      return true;
  return false;
}

void pki_fusion_plan_module(pki_module *m) {
  pki_fusion_plan *plan = pki_alloc(m->arena, sizeof *plan);
  *plan = (pki_fusion_plan){0};
  m->fusion = plan;
  for (int e = 0; e < m->nentities; e++) {
    const pki_entity *ent = m->entities[e];
    if (ent->kind != PKI_ENT_WORKLOAD || uses_fusion_names(ent))
      continue;
    for (int f = 0; f < ent->nfuncs; f++)
      if (ent->funcs[f] && ent->funcs[f]->is_main) {
        plan_ctx c = {.m = m, .main = ent->funcs[f], .plan = plan};
        plan_block(&c, &ent->funcs[f]->body);
      }
  }
  pki_fusion_plan_host(m, plan);
  sort_notes(&plan->notes);
}

const pki_fused *pki_fused_at(const pki_module *m, const pki_stmt *s, bool *inside) {
  *inside = false;
  if (!m->fusion)
    return NULL;
  for (int i = 0; i < m->fusion->groups.n; i++) {
    const pki_fused *g = PKI_AT(m->fusion->groups, i, pki_fused);
    if (g->loop ? g->loop == s : g->stmts[0] == s)
      return g;
    for (int k = 1; k < g->n && !g->loop; k++)
      if (g->stmts[k] == s)
        *inside = true;
  }
  return NULL;
}
