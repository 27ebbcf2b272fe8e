/*
 * mdrange.c - the contiguous work index of each MDRange kernel (issue 24):
 * host backends run an MDRange as rows along it (a loop the compiler
 * vectorizes), GPUs put a warp along it in the default tile. Only reads the
 * access summaries; records the result on the kernel (pki_func.md_contiguous).
 */
#include "access.h"

/* The dimension of an access to View v that is contiguous in memory, or -1
 * (a strided subview). A View of classtype values is C order in both
 * layouts on every backend (emit_classview.c): its last dimension. */
static int contiguous_dim(const pki_var *v, int rank, bool left_default) {
  pki_layout l = v->type.layout;
  if (pki_is_class_view(v->type))
    return rank < 1 ? -1 : rank - 1;
  if (l == PKI_LAYOUT_DEFAULT)
    l = left_default ? PKI_LAYOUT_LEFT : PKI_LAYOUT_RIGHT;
  if (l == PKI_LAYOUT_STRIDE || rank < 1)
    return -1;
  return l == PKI_LAYOUT_LEFT ? 0 : rank - 1;
}

/* The work index of MDRange kernel f (summary s) that runs along contiguous
 * memory when Views of the default layout are LayoutLeft (left) or
 * LayoutRight: each access whose contiguous dimension (the last of a
 * LayoutRight View, the first of a LayoutLeft one) is indexed by work index
 * k (plus a constant) votes for k, a write twice; no vote, or a tie with the
 * default, gives the default (the last index for LayoutRight, the first for
 * LayoutLeft). Backends iterate and tile along it (pkc::md_parallel_for). */
static int contiguous_index(const pki_func *f, const pki_access_summary *s, bool left) {
  int n = f->nindex < PKI_ACCESS_MAX_DIMS ? f->nindex : PKI_ACCESS_MAX_DIMS;
  int fallback = left ? 0 : n - 1;
  if (n < 1)
    return 0;
  int votes[PKI_ACCESS_MAX_DIMS] = {0};
  for (int i = 0; s && i < s->accesses.n; i++) {
    const pki_access *x = PKI_AT(s->accesses, i, pki_access);
    if (x->rank != x->view->type.rank)
      continue; /* a partial index (a subview): no element */
    int d = contiguous_dim(x->view, x->rank, left);
    if (d < 0)
      continue;
    const pki_idx *ix = &x->idx[d];
    if ((ix->kind == PKI_IDX_IDENTITY || ix->kind == PKI_IDX_OFFSET) && ix->work >= 0 &&
        ix->work < n)
      votes[ix->work] += x->mode & PKI_MEM_WRITE ? 2 : 1;
  }
  int best = fallback;
  for (int k = 0; k < n; k++)
    if (votes[k] > votes[best])
      best = k;
  return best;
}

/* Whether rows along work index c (a plain loop over c per thread) touch
 * memory contiguously: no access indexes a dimension other than its View's
 * contiguous one by c (B[i][j] += A[j][i] along j reads A strided: Kokkos'
 * tiles measured 2.2x faster there). */
static bool rows_contiguous(const pki_access_summary *s, int c, bool left) {
  for (int i = 0; s && i < s->accesses.n; i++) {
    const pki_access *x = PKI_AT(s->accesses, i, pki_access);
    int d = contiguous_dim(x->view, x->rank, left);
    for (int k = 0; k < x->rank && k < PKI_ACCESS_MAX_DIMS; k++)
      if (k != d && x->idx[k].kind != PKI_IDX_INDIRECT && x->idx[k].kind != PKI_IDX_UNKNOWN &&
          (x->idx[k].works >> c & 1u))
        return false;
  }
  return true;
}

static void plan(pki_module *m, pki_func *f) {
  if (!f || !f->is_workunit || f->policy != PKI_POLICY_MDRANGE || f->runtime_typed)
    return;
  const pki_access_summary *s = pki_access_summarize(m, f);
  f->md_contiguous[0] = contiguous_index(f, s, false);
  f->md_contiguous[1] = contiguous_index(f, s, true);
  f->md_rows = rows_contiguous(s, f->md_contiguous[0], false);
  f->md_planned = true;
}

void pki_mdrange_plan_module(pki_module *m) {
  for (int i = 0; i < m->nentities; i++) {
    pki_entity *e = m->entities[i];
    for (int j = 0; e && j < e->nfuncs; j++) {
      pki_func *f = e->funcs[j];
      plan(m, f);
      for (int c = 0; f && f->is_main && c < f->nclosures; c++)
        plan(m, f->closures[c]);
    }
  }
}
