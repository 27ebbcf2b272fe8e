/*
 * range.c - how a RangePolicy or MDRange parallel_for may run on host
 * backends (issues 24, 26): whether each work item touches the Views it
 * writes only at its own index (a RangePolicy's i; an MDRange's index along
 * its host rows, ir/mdrange.c), so that blocks of the range, or the rows,
 * run as loops the compiler may vectorize without proving the Views apart (a
 * gather y[i] = x[idx[i]]; eight Views of one Euler state), and whether a
 * RangePolicy body is a plain copy dst[i] = src[i] (then the launch is a
 * memory copy). Views of classtype values count as one View each (the SoA
 * accessor's field Views together). Only reads the access summaries and the
 * body; records the result on the kernel (pki_func.range_*). The launch
 * checks at run time that the Views it writes overlap no other View it
 * touches (pkc::apart).
 */
#include "access.h"

/* The dimensions that access x indexes by exactly work index `work` (bit d). */
static unsigned own_dims(const pki_access *x, int work) {
  unsigned dims = 0;
  for (int d = 0; d < x->rank && d < PKI_ACCESS_MAX_DIMS; d++)
    if (x->idx[d].kind == PKI_IDX_IDENTITY && x->idx[d].work == work)
      dims |= 1u << d;
  return dims;
}

/* Whether the work items of f that differ only in work index `work` touch
 * each View f writes at different elements (one dimension of it indexed by
 * that index everywhere), with no atomic update: then no iteration of a loop
 * over that index depends on another once the written Views overlap no other
 * View (checked at the launch). Fills f->range_written and f->range_others. */
static bool own_writes(pki_module *m, pki_func *f, const pki_access_summary *s, int work) {
  if (!s || (s->unknown && !s->unknown_class_views_only) || s->team || s->scratch || s->scan ||
      s->random || s->reduction)
    return false;
  for (int i = 0; i < s->accesses.n; i++) {
    const pki_access *x = PKI_AT(s->accesses, i, pki_access);
    if ((x->mode & PKI_MEM_ATOMIC) || !pki_named_view(f, x->view))
      return false;
  }
  for (int i = 0; i < s->views.n; i++) {
    const pki_view_use *u = PKI_AT(s->views, i, pki_view_use);
    if (!(u->mode & PKI_MEM_WRITE))
      continue;
    /* a dimension that every access to it, reads too, indexes by i: the
     * elements of index i there are work item i's alone (A[i][0] = A[5][i]
     * reads in item 0 what item 5 writes) */
    unsigned dims = ~0u;
    for (int k = 0; k < s->accesses.n; k++) {
      const pki_access *x = PKI_AT(s->accesses, k, pki_access);
      if (x->view == u->view)
        dims &= x->rank == x->view->type.rank ? own_dims(x, work) : 0u;
    }
    if (!dims)
      return false;
  }
  for (int i = 0; i < s->views.n; i++) {
    const pki_view_use *u = PKI_AT(s->views, i, pki_view_use);
    pki_vec_push(m->arena, u->mode & PKI_MEM_WRITE ? &f->range_written : &f->range_others,
                 (void *)u->view);
  }
  return f->range_written.n > 0;
}

/* v[i] for the work index i of f, a rank-1 View of numbers; v or NULL. */
static const pki_var *at_work_index(const pki_func *f, const pki_expr *e) {
  if (!e || e->kind != PKI_E_INDEX || e->nargs != 2 || e->args[0]->kind != PKI_E_VAR)
    return NULL;
  const pki_var *v = e->args[0]->var, *i = e->args[1]->kind == PKI_E_VAR ? e->args[1]->var : NULL;
  if (!v || !i || i != f->index[0] || v->type.kind != PKI_VIEW || v->type.rank != 1 ||
      v->type.layout == PKI_LAYOUT_STRIDE || !pki_is_numeric(v->type.elem))
    return NULL;
  return v;
}

/* A body that is exactly dst[i] = src[i], two Views of one element type. */
static void find_copy(pki_func *f) {
  if (f->body.n != 1 || f->body.stmts[0]->kind != PKI_S_ASSIGN)
    return;
  const pki_stmt *st = f->body.stmts[0];
  const pki_var *dst = at_work_index(f, st->target), *src = at_work_index(f, st->value);
  if (!dst || !src || dst == src || dst->type.elem != src->type.elem ||
      dst->type.space != src->type.space)
    return;
  f->range_copy_dst = dst;
  f->range_copy_src = src;
}

static void plan(pki_module *m, pki_func *f) {
  if (!f || !f->is_workunit || f->pattern != PKI_PATTERN_FOR || f->runtime_typed)
    return;
  bool range = f->policy == PKI_POLICY_RANGE && f->nindex == 1;
  /* MDRange: along the host rows (ir/mdrange.c runs first) */
  bool rows = f->policy == PKI_POLICY_MDRANGE && f->md_planned && f->md_rows &&
              (f->nindex == 2 || f->nindex == 3);
  if (!range && !rows)
    return;
  const pki_access_summary *s = pki_access_summarize(m, f);
  f->range_own = own_writes(m, f, s, range ? 0 : f->md_contiguous[0]);
  if (f->range_own && range)
    find_copy(f);
  f->range_planned = true;
}

void pki_range_plan_module(pki_module *m) {
  for (int i = 0; i < m->nentities; i++) {
    pki_entity *e = m->entities[i];
    for (int j = 0; e && j < e->nfuncs; j++)
      plan(m, e->funcs[j]);
  }
}
