/*
 * footprint.c - the elements of each View that one work item of a
 * RangePolicy or MDRange parallel_for touches, per View dimension: the work
 * index plus a constant window (u[i - 1] .. u[i + 1]: i - 1 .. i + 1), a
 * constant window, or any element. With the launch's bounds this gives the
 * box of each View a launch reads and writes: pk.Graph (pykokkos/_graph.py)
 * makes a captured launch depend only on the earlier ones whose boxes
 * conflict with its own, so that kernels over disjoint parts of a grid (the
 * faces of a domain, an interior update beside a halo exchange) become
 * parallel branches of the CUDA graph. Only reads the access summaries;
 * records the result on the kernel (pki_func.footprint*).
 */
#include "access.h"

/* Index x of an access as a footprint dimension. */
static pki_footprint_dim dim_of(const pki_idx *x) {
  pki_footprint_dim d = {PKI_FOOTPRINT_ANY, 0, 0};
  if (x->kind == PKI_IDX_IDENTITY || x->kind == PKI_IDX_OFFSET) {
    d.work = x->work;
    d.lo = d.hi = x->kind == PKI_IDX_OFFSET ? x->offset : 0;
  } else if (x->kind == PKI_IDX_INDEPENDENT && x->constant) {
    d.work = PKI_FOOTPRINT_CONST;
    d.lo = d.hi = x->offset;
  }
  return d;
}

/* The union of two windows of one dimension. */
static pki_footprint_dim join(pki_footprint_dim a, pki_footprint_dim b) {
  if (a.work != b.work || a.work == PKI_FOOTPRINT_ANY)
    return (pki_footprint_dim){PKI_FOOTPRINT_ANY, 0, 0};
  return (pki_footprint_dim){a.work, a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
}

/* Adds access x to fp (a View's footprint, first is its first access). */
static void add_access(pki_footprint *fp, const pki_access *x, bool first) {
  fp->mode |= x->mode;
  for (int d = 0; d < fp->rank && d < 8; d++) {
    pki_footprint_dim a = d < x->rank && x->rank == fp->rank
                              ? dim_of(&x->idx[d])
                              : (pki_footprint_dim){PKI_FOOTPRINT_ANY, 0, 0};
    fp->dim[d] = first ? a : join(fp->dim[d], a);
  }
}

static bool bounded(pki_module *m, pki_func *f, const pki_access_summary *s) {
  if (!s || s->unknown || s->team || s->scratch || s->scan || s->random || s->reduction)
    return false;
  for (int i = 0; i < s->views.n; i++) {
    const pki_view_use *u = PKI_AT(s->views, i, pki_view_use);
    if (!pki_named_view(f, u->view) || u->view->type.rank > 8)
      return false;
    pki_footprint *fp = pki_alloc(m->arena, sizeof *fp);
    fp->view = u->view;
    fp->rank = u->view->type.rank;
    bool first = true;
    for (int k = 0; k < s->accesses.n; k++) {
      const pki_access *x = PKI_AT(s->accesses, k, pki_access);
      if (x->view == u->view) {
        add_access(fp, x, first);
        first = false;
      }
    }
    pki_vec_push(m->arena, &f->footprint, fp);
  }
  return true;
}

static void plan(pki_module *m, pki_func *f) {
  if (!f || !f->is_workunit || f->pattern != PKI_PATTERN_FOR || f->runtime_typed ||
      (f->policy != PKI_POLICY_RANGE && f->policy != PKI_POLICY_MDRANGE))
    return;
  f->footprint_known = bounded(m, f, pki_access_summarize(m, f));
  f->footprint_planned = true;
}

void pki_footprint_plan_module(pki_module *m) {
  for (int i = 0; i < m->nentities; i++) {
    pki_entity *e = m->entities[i];
    for (int j = 0; e && j < e->nfuncs; j++)
      plan(m, e->funcs[j]);
  }
}
