/*
 * fusion.c - whether a sequence of kernels can be fused into one (access.h).
 *
 * The fusion constraints of Diffuse (ASPLOS'25) on access summaries: the
 * fused kernel runs every kernel's body at each point of one launch domain,
 * in sequence order, so a point may only depend on the same point of earlier
 * kernels. Checked per later kernel j, against every earlier kernel i:
 *   - scans, team kernels, kernels using scratch and kernels whose accesses
 *     are unknown are not fused at all;
 *   - the launch domain must be the first kernel's (same policy kind and
 *     rank; bounds the same, or "legal if equal at run time");
 *   - for each View written in one kernel and accessed in the other (same
 *     argument identity), both accesses must be at the same point: for every
 *     work index k some dimension is work index k (+ the same constant) in
 *     both (true, anti and output dependences across points otherwise);
 *   - an atomic update conflicts with any other access of the View, except
 *     atomic updates of the same commuting class whose old values are unused;
 *   - a kernel may not read the result of an earlier reduction.
 */
#include "access.h"

#include <string.h>

static pki_fuse_decision decision(pki_fuse_verdict v, pki_fuse_rule r, int first, int second,
                                  int prefix) {
  pki_fuse_decision d = {.verdict = v, .rule = r, .first = first, .second = second,
                         .prefix = prefix};
  return d;
}

/* ------------------------------------------------------------ rules */

static int identity_of(const pki_fuse_kernel *k, const pki_var *v) {
  for (int i = 0; i < k->nviews; i++)
    if (k->views[i].view == v)
      return k->views[i].identity;
  return -1;
}

/* Unknown identities may be the same memory. */
static bool may_alias(const pki_fuse_kernel *ki, const pki_access *a, const pki_fuse_kernel *kj,
                      const pki_access *b) {
  int x = identity_of(ki, a->view), y = identity_of(kj, b->view);
  return x < 0 || y < 0 || x == y;
}

static bool pins(const pki_idx *x, const pki_idx *y, int k) {
  bool at_point = x->kind == PKI_IDX_IDENTITY || x->kind == PKI_IDX_OFFSET;
  return at_point && x->kind == y->kind && x->work == k && y->work == k &&
         x->offset == y->offset;
}

/* Whether a (at point p) and b (at point p') can touch the same element only
 * when p == p': every work index is pinned by some dimension in both. */
static bool same_point(const pki_access *a, const pki_access *b, int nwork) {
  if (a->rank != b->rank || nwork <= 0)
    return false;
  for (int k = 0; k < nwork; k++) {
    bool pinned = false;
    for (int d = 0; d < a->rank && !pinned; d++)
      pinned = pins(&a->idx[d], &b->idx[d], k);
    if (!pinned)
      return false;
  }
  return true;
}

static bool commuting_atomics(const pki_access *a, const pki_access *b) {
  return (a->mode & b->mode & PKI_MEM_ATOMIC) && a->atomic == b->atomic &&
         a->atomic != PKI_ATOMIC_OTHER && !((a->mode | b->mode) & PKI_MEM_FETCH);
}

/* The rule access a of an earlier kernel and b of a later one break (OK if none). */
static pki_fuse_rule conflict(const pki_access *a, const pki_access *b, int nwork) {
  unsigned writes = PKI_MEM_WRITE | PKI_MEM_ATOMIC;
  bool wa = a->mode & writes, wb = b->mode & writes;
  if (!wa && !wb)
    return PKI_FUSE_OK;
  if ((a->mode | b->mode) & PKI_MEM_ATOMIC)
    return commuting_atomics(a, b) ? PKI_FUSE_OK : PKI_FUSE_ATOMIC;
  if (same_point(a, b, nwork))
    return PKI_FUSE_OK;
  if (wa)
    return b->mode & PKI_MEM_READ ? PKI_FUSE_RAW : PKI_FUSE_WAW;
  return PKI_FUSE_WAR;
}

/* Rules about kernel j alone (it cannot be part of any fusion). */
static bool alone(const pki_fuse_kernel *ks, int j, pki_fuse_decision *d) {
  const pki_access_summary *s = ks[j].sum;
  pki_fuse_rule r = s->scan                                        ? PKI_FUSE_SCAN
                    : s->team || ks[j].policy == PKI_POLICY_TEAM   ? PKI_FUSE_TEAM
                    : s->scratch                                   ? PKI_FUSE_SCRATCH
                    : s->unknown                                   ? PKI_FUSE_UNKNOWN
                                                                   : PKI_FUSE_OK;
  if (r == PKI_FUSE_OK)
    return false;
  *d = decision(PKI_FUSE_ILLEGAL, r, j, -1, j ? j : 1);
  d->at_first = r == PKI_FUSE_UNKNOWN ? s->unknown_at : s->span;
  return true;
}

/* Launch domain of kernel j against kernel 0: true if it says anything. */
static bool domain(const pki_fuse_kernel *ks, int j, pki_fuse_decision *d) {
  const pki_fuse_kernel *k0 = &ks[0], *kj = &ks[j];
  bool ranks = k0->policy != PKI_POLICY_MDRANGE || k0->rank == kj->rank;
  if (k0->policy != kj->policy || !ranks || k0->sum->nwork != kj->sum->nwork)
    *d = decision(PKI_FUSE_ILLEGAL, PKI_FUSE_POLICY, 0, j, j);
  else if (kj->bounds == PKI_BOUNDS_DIFFERENT)
    *d = decision(PKI_FUSE_ILLEGAL, PKI_FUSE_BOUNDS, 0, j, j);
  else if (kj->bounds == PKI_BOUNDS_UNKNOWN)
    *d = decision(PKI_FUSE_LEGAL_IF_BOUNDS_EQUAL, PKI_FUSE_BOUNDS, 0, j, 0);
  else
    return false;
  d->at_first = k0->sum->span;
  d->at_second = kj->sum->span;
  return true;
}

/* Kernel j reads a result of the reduction kernel i. */
static bool reads_result(const pki_fuse_kernel *ks, int i, int j, pki_fuse_decision *d) {
  const pki_access_summary *s = ks[j].sum;
  for (int k = 0; k < ks[j].ninputs; k++) {
    if (ks[j].inputs[k].producer != i)
      continue;
    for (int r = 0; r < s->scalars.n; r++) {
      const pki_scalar_read *x = PKI_AT(s->scalars, r, pki_scalar_read);
      if (x->var != ks[j].inputs[k].var)
        continue;
      *d = decision(PKI_FUSE_ILLEGAL, PKI_FUSE_RESULT, i, j, j);
      d->name = x->var->name;
      d->at_first = ks[i].sum->acc_span;
      d->at_second = x->span;
      return true;
    }
  }
  return false;
}

/* Kernels i < j: true (and *d) if they cannot be fused. */
static bool pair(const pki_fuse_kernel *ks, int i, int j, pki_fuse_decision *d) {
  if (reads_result(ks, i, j, d))
    return true;
  const pki_access_summary *si = ks[i].sum, *sj = ks[j].sum;
  for (int p = 0; p < si->accesses.n; p++) {
    const pki_access *a = PKI_AT(si->accesses, p, pki_access);
    for (int q = 0; q < sj->accesses.n; q++) {
      const pki_access *b = PKI_AT(sj->accesses, q, pki_access);
      if (!may_alias(&ks[i], a, &ks[j], b))
        continue;
      pki_fuse_rule r = conflict(a, b, si->nwork);
      if (r == PKI_FUSE_OK)
        continue;
      *d = decision(PKI_FUSE_ILLEGAL, r, i, j, j);
      d->name = b->view->name;
      d->a = a;
      d->b = b;
      d->at_first = a->span;
      d->at_second = b->span;
      return true;
    }
  }
  return false;
}

pki_fuse_decision pki_fuse_check(const pki_fuse_kernel *ks, int n) {
  pki_fuse_decision d, cond = decision(PKI_FUSE_LEGAL, PKI_FUSE_OK, -1, -1, n);
  if (n <= 1)
    return cond;
  for (int j = 0; j < n; j++) {
    if (alone(ks, j, &d))
      return d;
    if (j > 0 && domain(ks, j, &d)) {
      if (d.verdict == PKI_FUSE_ILLEGAL)
        return d;
      if (cond.verdict == PKI_FUSE_LEGAL)
        cond = d;
    }
    for (int i = 0; i < j; i++)
      if (pair(ks, i, j, &d))
        return d;
  }
  cond.prefix = n;
  return cond;
}

/* ------------------------------------------------------------ reasons */

const char *pki_fuse_rule_name(pki_fuse_rule r) {
  static const char *const names[] = {"ok",     "scan",   "team", "scratch", "unknown", "policy",
                                      "bounds", "raw",    "war",  "waw",     "atomic",  "result"};
  return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

/* "line 12" or "line 12, in 'f' called at line 20" */
static const char *line_of(pki_arena *a, pki_span at, const pki_access *x) {
  if (x && x->callee)
    return pki_sprintf(a, "line %u, in '%s' called at line %u", at.line, x->callee,
                       x->call.line);
  return pki_sprintf(a, "line %u", at.line);
}

static const char *domain_name(pki_arena *a, const pki_fuse_kernel *k) {
  switch (k->policy) {
  case PKI_POLICY_RANGE:
    return "a range";
  case PKI_POLICY_MDRANGE:
    return pki_sprintf(a, "an MDRange of rank %d", k->rank);
  default:
    return "a TeamPolicy";
  }
}

static const char *verb(const pki_access *x) {
  if (x->mode & PKI_MEM_ATOMIC)
    return "updates atomically";
  return x->mode & PKI_MEM_WRITE ? "writes" : "reads";
}

/* The View as the other kernel names it, when its name differs. */
static const char *as_name(pki_arena *a, const pki_access *x, const pki_access *other) {
  const char *n = x->view->name, *o = other->view->name;
  return n == o || !strcmp(n, o) ? "" : pki_sprintf(a, " '%s'", n);
}

static const char *access_reason(pki_arena *a, const pki_fuse_kernel *ks,
                                 const pki_fuse_decision *d) {
  const pki_access_summary *si = ks[d->first].sum, *sj = ks[d->second].sum;
  const char *wa = pki_access_where(a, si, d->a), *wb = pki_access_where(a, sj, d->b);
  const char *la = line_of(a, d->at_first, d->a), *lb = line_of(a, d->at_second, d->b);
  const char *asn = as_name(a, d->a, d->b);
  static const char *const why[] = {[PKI_FUSE_RAW] = "read after write across points",
                                    [PKI_FUSE_WAR] = "write after read across points",
                                    [PKI_FUSE_WAW] = "write after write across points"};
  if (d->rule == PKI_FUSE_ATOMIC)
    return pki_sprintf(a, "not fused: kernel '%s' (%s) %s '%s' at %s, which kernel '%s' (%s) "
                          "%s%s at %s (an atomic update must finish before another kernel "
                          "uses the View)",
                       sj->name, lb, verb(d->b), d->name, wb, si->name, la, verb(d->a), asn, wa);
  return pki_sprintf(a, "not fused: kernel '%s' (%s) %s '%s' at %s, which kernel '%s' (%s) "
                        "%s%s%s at %s (%s)",
                     sj->name, lb, d->rule == PKI_FUSE_RAW ? "reads" : "writes", d->name, wb,
                     si->name, la, d->rule == PKI_FUSE_WAW ? "also " : "",
                     d->rule == PKI_FUSE_WAR ? "reads" : "writes", asn, wa, why[d->rule]);
}

static const char *kernel_reason(pki_arena *a, const pki_fuse_kernel *ks,
                                 const pki_fuse_decision *d) {
  const pki_access_summary *s = ks[d->first].sum;
  unsigned line = d->at_first.line;
  switch (d->rule) {
  case PKI_FUSE_SCAN:
    return pki_sprintf(a, "not fused: kernel '%s' (line %u) is a parallel_scan; scans are "
                          "never fused", s->name, line);
  case PKI_FUSE_TEAM:
    return pki_sprintf(a, "not fused: kernel '%s' (line %u) runs over a TeamPolicy; team "
                          "kernels are not fused", s->name, line);
  case PKI_FUSE_SCRATCH:
    return pki_sprintf(a, "not fused: kernel '%s' (line %u) uses scratch memory; kernels "
                          "using scratch are not fused", s->name, line);
  default:
    return pki_sprintf(a, "not fused: the accesses of kernel '%s' are not known (line %u: %s)",
                       s->name, line, s->unknown_why ? s->unknown_why : "?");
  }
}

static const char *domain_reason(pki_arena *a, const pki_fuse_kernel *ks,
                                 const pki_fuse_decision *d) {
  const pki_access_summary *s0 = ks[d->first].sum, *sj = ks[d->second].sum;
  unsigned l0 = d->at_first.line, lj = d->at_second.line;
  if (d->rule == PKI_FUSE_POLICY)
    return pki_sprintf(a, "not fused: kernel '%s' (line %u) runs over %s but kernel '%s' "
                          "(line %u) over %s (launch domains differ)",
                       sj->name, lj, domain_name(a, &ks[d->second]), s0->name, l0,
                       domain_name(a, &ks[d->first]));
  if (d->verdict == PKI_FUSE_ILLEGAL)
    return pki_sprintf(a, "not fused: kernel '%s' (line %u) has bounds different from those "
                          "of kernel '%s' (line %u) (launch domains differ)",
                       sj->name, lj, s0->name, l0);
  return pki_sprintf(a, "fused only if the bounds of kernel '%s' (line %u) equal those of "
                        "kernel '%s' (line %u) at run time",
                     sj->name, lj, s0->name, l0);
}

static const char *legal_reason(pki_arena *a, const pki_fuse_kernel *ks, int n) {
  const char *names = "";
  for (int i = 0; i < n; i++)
    names = pki_sprintf(a, "%s%s'%s'", names, i ? ", " : "", ks[i].sum->name);
  return pki_sprintf(a, "fused: %s over one launch domain", n ? names : "no kernels");
}

const char *pki_fuse_reason(pki_arena *a, const pki_fuse_kernel *ks, int n,
                            const pki_fuse_decision *d) {
  switch (d->rule) {
  case PKI_FUSE_OK:
    return legal_reason(a, ks, n);
  case PKI_FUSE_SCAN:
  case PKI_FUSE_TEAM:
  case PKI_FUSE_SCRATCH:
  case PKI_FUSE_UNKNOWN:
    return kernel_reason(a, ks, d);
  case PKI_FUSE_POLICY:
  case PKI_FUSE_BOUNDS:
    return domain_reason(a, ks, d);
  case PKI_FUSE_RESULT:
    return pki_sprintf(a, "not fused: kernel '%s' (line %u) reads '%s', the result of reduction "
                          "kernel '%s' (line %u), known only once '%s' has finished",
                       ks[d->second].sum->name, d->at_second.line, d->name,
                       ks[d->first].sum->name, d->at_first.line, ks[d->first].sum->name);
  default:
    return access_reason(a, ks, d);
  }
}

bool pki_same_point(const pki_access *x, const pki_access *y) {
  if (x->rank != y->rank || x->rank == 0)
    return false;
  for (int d = 0; d < x->rank; d++) {
    const pki_idx *a = &x->idx[d], *b = &y->idx[d];
    if (a->kind != PKI_IDX_IDENTITY || b->kind != PKI_IDX_IDENTITY || a->work != b->work)
      return false;
  }
  return true;
}

bool pki_scatters(const pki_access_summary *s) {
  for (int i = 0; i < s->accesses.n; i++) {
    const pki_access *x = PKI_AT(s->accesses, i, pki_access);
    if (!(x->mode & PKI_MEM_WRITE) || (x->mode & PKI_MEM_ATOMIC))
      continue;
    for (int d = 0; d < x->rank; d++)
      if (x->idx[d].kind == PKI_IDX_INDIRECT)
        return true;
  }
  return false;
}
