/*
 * fuse_host.c - which launches of the file's host code run as one kernel
 * (kernel fusion ahead of time, the chains of frontend/host_chains.c).
 *
 * The arguments are what the analysis knows of identity: links that pass
 * the same text (`A=A` twice) pass the same View (the shim checks), other
 * texts are other Views (the shim checks they do not overlap where one is
 * written). A chain is split greedily where pki_fuse_check refuses the next
 * kernel, where no View is shared at the same point (no profit), and at
 * kernels that draw random numbers. After a reduction only reductions follow
 * in one kernel, and only those the shim may run ahead of their statements:
 * it runs the fused kernel when the first reduction's statement needs its
 * result, with the later statements' arguments read from the caller's frame
 * (pykokkos/_fusion.py), and keeps their results for them. So the later
 * ones write no View and raise nothing, their arguments and ranges do not
 * mention an earlier result, and each earlier result goes to a plain name
 * (assigning it runs no code). A loop body of parallel_for launches that may repeat per
 * point ([body, body] legal, arguments free of the loop variable) becomes a
 * repeated chain. Every candidate gets a note, fused or not, with the rule.
 */
#include <string.h>

#include "access.h"

typedef struct host_ctx {
  pki_module *m;
  pki_fusion_plan *plan;
  pki_vec sums; /* pki_access_summary *, one per kernel seen */
} host_ctx;

static const pki_access_summary *summary(host_ctx *c, const pki_func *f) {
  return pki_access_summary_cached(c->m, &c->sums, f);
}

static int param_index(const pki_func *f, const pki_var *v) {
  for (int p = 0; p < f->nparams; p++)
    if (f->params[p] == v)
      return p;
  return -1;
}

/* The identity of argument text t among the links': the position of its
 * first occurrence in the links' argument lists, one after the other. */
static int identity(const pki_host_launch *ls, int n, const char *t) {
  int at = 0;
  for (int k = 0; k < n; k++)
    for (int p = 0; p < ls[k].kernel->nparams; p++, at++)
      if (!strcmp(ls[k].args[p], t))
        return at;
  return -1;
}

/* ls[0..n-1] as pki_fuse_check takes them (Views identified by argument text). */
static pki_fuse_kernel *kernels(host_ctx *c, const pki_host_launch *ls, int n) {
  pki_arena *a = c->m->arena;
  pki_fuse_kernel *ks = pki_alloc(a, sizeof *ks * (size_t)(n ? n : 1));
  for (int k = 0; k < n; k++) {
    const pki_access_summary *sum = summary(c, ls[k].kernel);
    pki_fuse_kernel *fk = &ks[k];
    fk->sum = sum;
    fk->policy = ls[k].kernel->policy;
    fk->rank = ls[k].kernel->nindex;
    fk->bounds = k == 0 || !strcmp(ls[k].policy, ls[0].policy) ? PKI_BOUNDS_SAME
                                                                : PKI_BOUNDS_UNKNOWN;
    pki_fuse_view *vs = pki_alloc(a, sizeof *vs * (size_t)(sum->views.n ? sum->views.n : 1));
    for (int i = 0; i < sum->views.n; i++) {
      const pki_view_use *u = PKI_AT(sum->views, i, pki_view_use);
      int p = param_index(ls[k].kernel, u->view);
      vs[i].view = u->view;
      vs[i].identity = p < 0 ? -1 : identity(ls, n, ls[k].args[p]);
    }
    fk->views = vs;
    fk->nviews = sum->views.n;
  }
  return ks;
}

static void note(host_ctx *c, pki_span at, bool fused, const char *text, const char *rule) {
  pki_fusion_note *n = pki_alloc(c->m->arena, sizeof *n);
  *n = (pki_fusion_note){NULL, at, fused, text, rule};
  pki_vec_push(c->m->arena, &c->plan->notes, n);
}

static const char *kernel_list(host_ctx *c, const pki_host_launch *ls, int n) {
  const char *s = "";
  for (int k = 0; k < n; k++)
    s = pki_sprintf(c->m->arena, "%s%s'%s'", s, k ? (k == n - 1 ? " and " : ", ") : "",
                    ls[k].kernel->name);
  return s;
}

/* Same View (by argument text) at the same point (pki_same_point) in link
 * x and some link of ls[0..n-1]. */
static bool shares_a_point(host_ctx *c, const pki_host_launch *ls, int n,
                           const pki_host_launch *x) {
  const pki_access_summary *sx = summary(c, x->kernel);
  for (int k = 0; k < n; k++) {
    const pki_access_summary *sk = summary(c, ls[k].kernel);
    for (int i = 0; i < sx->accesses.n; i++)
      for (int j = 0; j < sk->accesses.n; j++) {
        const pki_access *a = PKI_AT(sx->accesses, i, pki_access);
        const pki_access *b = PKI_AT(sk->accesses, j, pki_access);
        int pa = param_index(x->kernel, a->view), pb = param_index(ls[k].kernel, b->view);
        if (pa >= 0 && pb >= 0 && !strcmp(x->args[pa], ls[k].args[pb]) &&
            pki_same_point(a, b))
          return true;
      }
  }
  return false;
}

/* Why a kernel of ls cannot be fused at all, or NULL. */
static const char *alone(host_ctx *c, const pki_host_launch *l, const char **rule) {
  if (l->kernel->inferred) {
    *rule = "inferred";
    return pki_sprintf(c->m->arena, "not fused: kernel '%s' (line %u) has parameter types "
                       "inferred from its calls (annotate them to fuse it)", l->kernel->name,
                       (unsigned)l->kernel->span.line);
  }
  if (summary(c, l->kernel)->random) {
    *rule = "random";
    return pki_sprintf(c->m->arena, "not fused: kernel '%s' (line %u) draws random numbers, "
                       "whose order fusion would change", l->kernel->name,
                       (unsigned)l->kernel->span.line);
  }
  return NULL;
}

static bool ident_char(char ch) {
  return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
         (ch >= '0' && ch <= '9');
}

/* Whether text t (an argument or policy as written) names `name` (any
 * identifier token of it: attribute names count too, to be safe). */
static bool mentions(const char *t, const char *name) {
  size_t n = strlen(name);
  for (const char *p = t; *p; p++)
    if (!strncmp(p, name, n) && (p == t || !ident_char(p[-1])) && !ident_char(p[n]))
      return true;
  return false;
}

/* A plain name (an assignment to it runs no code), or a name, attribute
 * chain or number (the shim reads it without running code). */
static bool plain_name(const char *t, bool dotted) {
  if (!*t || (*t >= '0' && *t <= '9' && !dotted))
    return false;
  for (const char *p = t; *p; p++)
    if (!ident_char(*p) && !(dotted && (*p == '.' || (*p == '-' && p == t))))
      return false;
  return true;
}

static bool writes_a_view(const pki_access_summary *s) {
  for (int i = 0; i < s->accesses.n; i++)
    if (PKI_AT(s->accesses, i, pki_access)->mode & (PKI_MEM_WRITE | PKI_MEM_ATOMIC))
      return true;
  return s->unknown;
}

/* Why reduction link `next` cannot run ahead of its statement, after the
 * reduction red and the links ls[0..n-1] (see the top), or NULL. */
static const char *ahead_refusal(host_ctx *c, const pki_host_launch *ls, int n,
                                 const pki_host_launch *red, const pki_host_launch *next,
                                 const char **rule) {
  pki_arena *a = c->m->arena;
  const char *k = next->kernel->name, *r = red->kernel->name;
  unsigned line = (unsigned)next->span.line, rl = (unsigned)red->span.line;
  *rule = "reductions";
  if (next->pattern != PKI_PATTERN_REDUCE)
    return pki_sprintf(a, "not fused: the result of the reduction '%s' (line %u) goes back to "
                       "Python before '%s' runs", r, rl, k);
  if (writes_a_view(summary(c, next->kernel)))
    return pki_sprintf(a, "not fused: '%s' (line %u) writes a View, so it may not run before "
                       "the statement of the reduction '%s' (line %u) has its result", k, line,
                       r, rl);
  if (pki_raising_lines(a, next->kernel))
    return pki_sprintf(a, "not fused: '%s' (line %u) may raise an error, so it may not run "
                       "before the statement of the reduction '%s' (line %u) has its result",
                       k, line, r, rl);
  bool known = plain_name(next->policy, true);
  for (int j = 0; j < n && !known; j++)
    known = !strcmp(next->policy, ls[j].policy);
  if (!known)
    return pki_sprintf(a, "not fused: the range of '%s' (line %u), '%s', is neither a name nor "
                       "the range of an earlier launch, so it cannot be read before its "
                       "statement runs", k, line, next->policy);
  for (int j = 0; j < n; j++) {
    const char *t = ls[j].target;
    if (ls[j].pattern != PKI_PATTERN_REDUCE)
      continue;
    if (!plain_name(t, false))
      return pki_sprintf(a, "not fused: the result of '%s' (line %u) is assigned to '%s', not "
                         "to a plain name (the assignment could run code before '%s')",
                         ls[j].kernel->name, (unsigned)ls[j].span.line, t, k);
    bool uses = mentions(next->policy, t);
    for (int p = 0; p < next->kernel->nparams && !uses; p++)
      uses = mentions(next->args[p], t);
    if (uses) {
      *rule = "result";
      return pki_sprintf(a, "not fused: the launch of '%s' (line %u) reads '%s', the result of "
                         "the reduction '%s' (line %u)", k, line, t, ls[j].kernel->name,
                         (unsigned)ls[j].span.line);
    }
  }
  return NULL;
}

static const pki_host_launch *first_reduction(const pki_host_launch *ls, int n) {
  for (int k = 0; k < n; k++)
    if (ls[k].pattern == PKI_PATTERN_REDUCE)
      return &ls[k];
  return NULL;
}

/* Why link `next` cannot join ls[0..n-1], or NULL if it can. */
static const char *refusal(host_ctx *c, const pki_host_launch *ls, int n,
                           const pki_host_launch *next, const char **rule) {
  const pki_host_launch *red = first_reduction(ls, n);
  const char *why = red ? ahead_refusal(c, ls, n, red, next, rule) : NULL;
  if (why)
    return why;
  why = alone(c, next, rule);
  if (why)
    return why;
  pki_host_launch *all = pki_alloc(c->m->arena, sizeof *all * (size_t)(n + 1));
  memcpy(all, ls, sizeof *ls * (size_t)n);
  all[n] = *next;
  pki_fuse_kernel *ks = kernels(c, all, n + 1);
  pki_fuse_decision d = pki_fuse_check(ks, n + 1);
  if (d.verdict == PKI_FUSE_ILLEGAL) {
    *rule = pki_fuse_rule_name(d.rule);
    return pki_fuse_reason(c->m->arena, ks, n + 1, &d);
  }
  if (!shares_a_point(c, ls, n, next) && !(red && !strcmp(next->policy, red->policy))) {
    *rule = "profit"; /* reductions over the same range share one launch and one wait */
    return pki_sprintf(c->m->arena, "not fused: the launch of '%s' (line %u) accesses no View "
                       "at the same point as %s, so fusing would save no memory traffic",
                       next->kernel->name, (unsigned)next->span.line, kernel_list(c, ls, n));
  }
  return NULL;
}

/* The fused parameters of links ls[0..n-1]: one per View argument text, one
 * per scalar argument text and type. A parameter is named by its text, a
 * literal by the kernel parameter ("axpy.a"); "_<link>" makes names unique. */
static void fuse_params(host_ctx *c, pki_host_fused *g, const pki_host_launch *ls, int n) {
  pki_arena *a = c->m->arena;
  int cap = 0;
  for (int k = 0; k < n; k++)
    cap += ls[k].kernel->nparams;
  const char **texts = pki_alloc(a, sizeof *texts * (size_t)(cap + 1));
  g->params = pki_alloc(a, sizeof *g->params * (size_t)(cap + 1));
  g->names = pki_alloc(a, sizeof *g->names * (size_t)(cap + 1));
  g->bind = pki_alloc(a, sizeof *g->bind * (size_t)n);
  for (int k = 0; k < n; k++) {
    const pki_func *f = ls[k].kernel;
    g->bind[k] = pki_alloc(a, sizeof **g->bind * (size_t)(f->nparams + 1));
    for (int p = 0; p < f->nparams; p++) {
      const pki_var *v = f->params[p];
      const char *t = ls[k].args[p];
      int j = 0;
      while (j < g->nparams && !(!strcmp(texts[j], t) && pki_type_eq(g->params[j]->type, v->type)))
        j++;
      if (j == g->nparams) {
        bool literal = !(t[0] == '_' || (t[0] | 0x20) >= 'a') || !strcmp(t, "True") ||
                       !strcmp(t, "False");
        const char *name = literal ? pki_sprintf(a, "%s.%s", f->name, v->name) : t;
        for (int q = 0; q < g->nparams; q++)
          if (!strcmp(g->names[q], name))
            name = pki_sprintf(a, "%s_%d", name, k);
        texts[j] = t;
        g->params[j] = v;
        g->names[j] = name;
        g->nparams++;
      }
      g->bind[k][p] = j;
    }
  }
}

/* Views bound to one text must have one type (else the program cannot run). */
static const char *type_clash(host_ctx *c, const pki_host_launch *ls, int n) {
  for (int k = 0; k < n; k++)
    for (int p = 0; p < ls[k].kernel->nparams; p++)
      for (int j = 0; j < k; j++)
        for (int q = 0; q < ls[j].kernel->nparams; q++) {
          const pki_var *x = ls[k].kernel->params[p], *y = ls[j].kernel->params[q];
          if ((x->type.kind == PKI_VIEW || y->type.kind == PKI_VIEW) &&
              !strcmp(ls[k].args[p], ls[j].args[q]) && !pki_type_eq(x->type, y->type))
            return pki_sprintf(c->m->arena, "not fused: '%s' is passed to '%s' (line %u) and "
                               "'%s' (line %u) as parameters of different types",
                               ls[k].args[p], ls[j].kernel->name, (unsigned)ls[j].span.line,
                               ls[k].kernel->name, (unsigned)ls[k].span.line);
        }
  return NULL;
}

static pki_host_fused *new_group(host_ctx *c, const pki_host_chain *ch, int first, int n,
                                 bool repeat) {
  pki_host_fused *g = pki_alloc(c->m->arena, sizeof *g);
  *g = (pki_host_fused){.id = c->plan->groups.n + c->plan->host.n, .chain = ch,
                        .first = first, .n = n, .repeat = repeat};
  const pki_host_launch *ls = ch->launches + first;
  for (int k = 1; k < n; k++)
    g->bounds_at_run_time |= strcmp(ls[k].policy, ls[0].policy) != 0;
  for (int k = 0; k < n; k++) {
    g->nresults += ls[k].pattern == PKI_PATTERN_REDUCE;
    g->scatter |= pki_scatters(summary(c, ls[k].kernel));
  }
  fuse_params(c, g, ls, n);
  pki_vec_push(c->m->arena, &c->plan->host, g);
  return g;
}

static void plan_residency(host_ctx *c, pki_host_fused *g);

static void close_group(host_ctx *c, const pki_host_chain *ch, int first, int n) {
  if (n < 2)
    return;
  const pki_host_launch *ls = ch->launches + first;
  const char *clash = type_clash(c, ls, n);
  if (clash) {
    note(c, ls[0].span, false, clash, "types");
    return;
  }
  pki_host_fused *g = new_group(c, ch, first, n, false);
  plan_residency(c, g);
  g->why = pki_sprintf(c->m->arena, "fused: %s (lines %u-%u, in %s) run as one kernel%s%s%s",
                       kernel_list(c, ls, n), (unsigned)ls[0].span.line,
                       (unsigned)ls[n - 1].span.line, ch->where,
                       g->nresults > 1 ? pki_sprintf(c->m->arena, " computing their %d "
                                                     "reductions in one pass", g->nresults)
                                       : "",
                       g->bounds_at_run_time ? " when their ranges are equal at run time" : "",
                       g->scatter ? PKI_SCATTER_NOTE : "");
  note(c, ls[0].span, true, g->why, "ok");
}

/* Greedy groups over links [from, to) of ch. */
static void plan_run(host_ctx *c, const pki_host_chain *ch, int from, int to) {
  int start = from;
  const char *rule = NULL, *why;
  while (start < to && (why = alone(c, &ch->launches[start], &rule))) {
    note(c, ch->launches[start].span, false, why, rule);
    start++;
  }
  for (int k = start + 1; k < to; k++) {
    why = refusal(c, ch->launches + start, k - start, &ch->launches[k], &rule);
    if (!why)
      continue;
    note(c, ch->launches[k].span, false, why, rule);
    close_group(c, ch, start, k - start);
    start = k;
    while (start < to && (why = alone(c, &ch->launches[start], &rule))) {
      if (start > k)
        note(c, ch->launches[start].span, false, why, rule);
      start++;
    }
    k = start;
  }
  if (start < to)
    close_group(c, ch, start, to - start);
}

/* Whether text t names the loop variable (t is it, or an attribute of it). */
static bool uses_var(const char *t, const char *var) {
  size_t n = strlen(var);
  return !strncmp(t, var, n) && (t[n] == '\0' || t[n] == '.');
}

/* The fused parameters of repeated group g that every link accesses only
 * at the work point (kept in registers over the repetitions). */
static void plan_residency(host_ctx *c, pki_host_fused *g) {
  const pki_func **fs = pki_alloc(c->m->arena, sizeof *fs * (size_t)g->n);
  for (int k = 0; k < g->n; k++)
    fs[k] = g->chain->launches[g->first + k].kernel;
  if (!pki_links_inlinable(fs, g->n, NULL))
    return;
  g->resident = pki_alloc(c->m->arena, sizeof *g->resident * (size_t)(g->nparams + 1));
  for (int j = 0; j < g->nparams; j++) {
    bool ok = g->params[j]->type.kind == PKI_VIEW;
    for (int k = 0; k < g->n && ok; k++)
      for (int p = 0; p < fs[k]->nparams && ok; p++) {
        bool whole;
        if (g->bind[k][p] == j)
          ok = pki_point_only(summary(c, fs[k]), fs[k], fs[k]->params[p], &whole);
      }
    g->resident[j] = ok;
  }
  g->stored_first = pki_alloc(c->m->arena, sizeof *g->stored_first * (size_t)(g->nparams + 1));
  for (int j = 0; j < g->nparams; j++) {
    pki_first_touch t = PKI_TOUCH_NONE;
    for (int k = 0; k < g->n && t == PKI_TOUCH_NONE && g->resident[j]; k++)
      for (int p = 0; p < fs[k]->nparams; p++) {
        if (g->bind[k][p] != j)
          continue;
        pki_first_touch tp = pki_first_touch_of(fs[k], fs[k]->params[p]);
        /* two parameters bound to one View (argument fusion): a store through
         * one may follow a read through the other */
        t = t == PKI_TOUCH_NONE ? tp : tp == PKI_TOUCH_NONE ? t : PKI_TOUCH_OTHER;
      }
    g->stored_first[j] = t == PKI_TOUCH_STORE;
  }
}

/* A loop body that may repeat per point; false (with a note if it was a
 * candidate) when not. */
static bool plan_repeat(host_ctx *c, const pki_host_chain *ch) {
  const pki_host_launch *ls = ch->launches;
  int n = ch->n;
  for (int k = 0; k < n; k++) {
    if (ls[k].pattern != PKI_PATTERN_FOR || uses_var(ls[k].policy, ch->loop_var))
      return false;
    for (int p = 0; p < ls[k].kernel->nparams; p++)
      if (uses_var(ls[k].args[p], ch->loop_var))
        return false;
  }
  const char *rule = NULL, *why = NULL;
  for (int k = 0; k < n && !why; k++)
    why = alone(c, &ls[k], &rule);
  if (!why)
    why = type_clash(c, ls, n), rule = "types";
  if (why) {
    note(c, ch->loop_span, false, pki_sprintf(c->m->arena, "%s (the loop of line %u)", why,
                                              (unsigned)ch->loop_span.line), rule);
    return true; /* nothing else to plan: the same kernels refuse per iteration */
  }
  pki_host_launch *twice = pki_alloc(c->m->arena, sizeof *twice * (size_t)(2 * n));
  for (int k = 0; k < 2 * n; k++)
    twice[k] = ls[k % n];
  pki_fuse_kernel *ks = kernels(c, twice, 2 * n);
  pki_fuse_decision d = pki_fuse_check(ks, 2 * n);
  if (d.verdict == PKI_FUSE_ILLEGAL) {
    note(c, ch->loop_span, false, pki_fuse_reason(c->m->arena, ks, 2 * n, &d),
         pki_fuse_rule_name(d.rule));
    return false;
  }
  pki_host_fused *g = new_group(c, ch, 0, n, true);
  plan_residency(c, g);
  g->why = pki_sprintf(c->m->arena, "fused: %s repeated by the loop of line %u (in %s) run as "
                       "one kernel with an inner loop%s%s", kernel_list(c, ls, n),
                       (unsigned)ch->loop_span.line, ch->where,
                       g->bounds_at_run_time ? " when their ranges are equal at run time" : "",
                       g->scatter ? PKI_SCATTER_NOTE : "");
  note(c, ch->loop_span, true, g->why, "ok");
  return true;
}

/* Kernels left out of the module (partial builds) take no part. */
static bool chain_built(const pki_module *m, const pki_host_chain *ch) {
  for (int k = 0; k < ch->n; k++) {
    bool found = false;
    for (int e = 0; e < m->nentities && !found; e++)
      found = m->entities[e] == ch->launches[k].kernel->owner;
    if (!found)
      return false;
  }
  return true;
}

/* Entity names that the fused kernels' names (pkc_fused<N>) would clash with. */
static bool fusion_names_taken(const pki_module *m) {
  for (int e = 0; e < m->nentities; e++)
    if (!strncmp(m->entities[e]->name, "pkc_fused", 9))
      return true;
  return false;
}

void pki_fusion_plan_host(pki_module *m, pki_fusion_plan *plan) {
  if (fusion_names_taken(m))
    return;
  host_ctx c = {.m = m, .plan = plan};
  for (int i = 0; i < m->host_chains.n; i++) {
    const pki_host_chain *ch = PKI_AT(m->host_chains, i, pki_host_chain);
    if (!chain_built(m, ch))
      continue;
    if (ch->loop && plan_repeat(&c, ch))
      continue;
    plan_run(&c, ch, 0, ch->n);
  }
}
