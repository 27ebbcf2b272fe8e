/*
 * check_dialect.c - typing of the pk.* intrinsics (TeamMember methods,
 * scratch Views, atomics, random numbers, subviews, timers/fences) and of
 * classtype fields/constructors/method parameters and typing.List literals.
 */
#include <string.h>

#include "check_priv.h"

static const char *tstr(pki_ck *c, pki_type t) { return pki_type_str(c->m->arena, t); }
static pki_kind kind_of(const pki_expr *e) { return e ? e->type.kind : PKI_VOID; }
static bool intlike(pki_kind k) { return k == PKI_BOOL || pki_is_int(k); }

static const char *iname(const pki_expr *e) {
  return (unsigned)e->intrinsic < PKI_INTRINSIC_COUNT ? pki_intrinsics[e->intrinsic].py_name
                                                      : "intrinsic";
}

/* The Python name of a variable operand, for messages. */
static const char *vname(const pki_expr *e) {
  return e && e->kind == PKI_E_VAR && e->var ? e->var->name : "expression";
}

/* Types an integer operand (size, index, bound) and casts it to int64. */
static pki_expr *ck_int_arg(pki_ck *c, pki_expr *e, const char *what) {
  e = pki_ck_expr(c, e);
  pki_kind k = kind_of(e);
  if (k == PKI_VOID)
    return e;
  if (!intlike(k)) {
    pki_error(c->d, e->span, "type-mismatch", "%s must be an integer, got %s%s", what,
              tstr(c, e->type), pki_is_float(k) ? "; use int(...)" : "");
    return e;
  }
  return pki_ck_conv(c, e, pki_int_type);
}

/* args[0] typed (with `access` on a variable); false unless it has kind k. */
static bool ck_operand(pki_ck *c, pki_expr *e, pki_kind k, unsigned access, const char *want) {
  pki_expr *a = e->nargs > 0 ? e->args[0] : NULL;
  if (!a) {
    pki_error(c->d, e->span, "bad-intrinsic", "%s needs %s", iname(e), want);
    return false;
  }
  if (a->kind == PKI_E_VAR) {
    a->type = a->var ? a->var->type : pki_void_type;
    pki_ck_mark(a->var, access);
  } else {
    e->args[0] = a = pki_ck_expr(c, a);
  }
  if (a->type.kind == PKI_VOID)
    return false;
  if (a->type.kind != k) {
    pki_error(c->d, a->span, "bad-intrinsic", "%s needs %s, but '%s' is %s", iname(e), want,
              vname(a), tstr(c, a->type));
    return false;
  }
  return true;
}

/* An extent of shmem_size: an integer (a float converts, with a warning). */
static pki_expr *ck_extent(pki_ck *c, pki_expr *e) {
  e = pki_ck_expr(c, e);
  if (!e || e->type.kind == PKI_VOID)
    return e;
  if (pki_is_float(e->type.kind))
    pki_warning(c->d, e->span, "implicit-conversion",
                "implicit conversion: a scratch extent is %s, truncated toward zero as in "
                "C++; write int(...) to make it explicit", pki_type_str(c->m->arena, e->type));
  else if (!pki_is_int(e->type.kind) && e->type.kind != PKI_BOOL) {
    pki_error(c->d, e->span, "type-mismatch", "a scratch extent must be an integer, got %s",
              pki_type_str(c->m->arena, e->type));
    return e;
  }
  return pki_ck_conv(c, e, pki_int_type);
}

/* ------------------------------------------------------------ contexts */

static bool kernel_only(pki_intrinsic k) {
  return k < PKI_INTRINSIC_TIMER_NEW;
}

static bool team_only(pki_intrinsic k) {
  return k <= PKI_INTRINSIC_SCRATCH_VIEW;
}

/* Reports an intrinsic used where it is not allowed; true if it is fine. */
static bool ck_context(pki_ck *c, pki_expr *e) {
  pki_intrinsic k = e->intrinsic;
  bool main = pki_ck_in_main(c);
  if (kernel_only(k) && main && k != PKI_INTRINSIC_SUBVIEW) { /* host subviews: @pk.main too */
    pki_error(c->d, e->span, "host-intrinsic",
              "%s can only be used inside a kernel, not in @pk.main (host code)", iname(e));
    return false;
  }
  if (!kernel_only(k) && !main) {
    pki_error(c->d, e->span, "kernel-intrinsic",
              "%s can only be used in @pk.main (host code), not inside a kernel", iname(e));
    return false;
  }
  if (team_only(k) && !pki_ck_in_team(c)) {
    pki_error(c->d, e->span, "team-intrinsic",
              "%s can only be used inside a TeamPolicy workunit (def k(m: pk.TeamMember, ...))",
              iname(e));
    return false;
  }
  return true;
}

/* ------------------------------------------------------- team and scratch */

/* m.team_scratch(level) / m.thread_scratch(level): only as a ScratchView's source. */
static bool ck_scratch_source(pki_ck *c, pki_expr *src) {
  if (!src || src->kind != PKI_E_INTRINSIC ||
      (src->intrinsic != PKI_INTRINSIC_TEAM_SCRATCH &&
       src->intrinsic != PKI_INTRINSIC_THREAD_SCRATCH)) {
    pki_error(c->d, src ? src->span : (pki_span){0}, "bad-scratch",
              "a ScratchView's first argument must be m.team_scratch(level) or "
              "m.thread_scratch(level)");
    return false;
  }
  bool ok = ck_operand(c, src, PKI_TEAM_MEMBER, 0, "the pk.TeamMember");
  pki_expr *lv = src->nargs > 1 ? src->args[1] : NULL;
  if (!lv || lv->kind != PKI_E_INT || lv->ival < 0 || lv->ival > 1) {
    pki_error(c->d, lv ? lv->span : src->span, "bad-scratch",
              "the scratch level must be the literal 0 or 1");
    return false;
  }
  lv->type = pki_int_type;
  src->type = pki_void_type;
  return ok;
}

static void ck_scratch_view(pki_ck *c, pki_expr *e) {
  pki_type want = e->type;
  e->type = pki_void_type;
  bool ok = e->nargs > 0 && ck_scratch_source(c, e->args[0]);
  for (int i = 1; i < e->nargs; i++)
    e->args[i] = ck_int_arg(c, e->args[i], "a ScratchView extent");
  int rank = e->nargs - 1;
  if (!ok)
    return;
  if (want.kind != PKI_VIEW) {
    pki_error(c->d, e->span, "bad-scratch",
              "annotate the scratch View: s: pk.ScratchView%dD[pk.double] = "
              "pk.ScratchView%dD(m.team_scratch(0), ...)",
              rank, rank);
    return;
  }
  if (want.rank != rank) {
    pki_error(c->d, e->span, "bad-scratch", "a ScratchView%dD needs %d extent%s, got %d",
              want.rank, want.rank, want.rank == 1 ? "" : "s", rank);
    return;
  }
  want.space = PKI_SPACE_SCRATCH;
  e->type = want;
}

/* ----------------------------------------------------------------- atomics */

static int atomic_values(pki_intrinsic k) {
  if (k == PKI_INTRINSIC_ATOMIC_INCREMENT || k == PKI_INTRINSIC_ATOMIC_DECREMENT)
    return 0;
  return k == PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE ? 2 : 1;
}

static bool atomic_int_only(pki_intrinsic k) {
  switch (k) {
  case PKI_INTRINSIC_ATOMIC_FETCH_MOD: case PKI_INTRINSIC_ATOMIC_FETCH_AND:
  case PKI_INTRINSIC_ATOMIC_FETCH_OR: case PKI_INTRINSIC_ATOMIC_FETCH_XOR:
  case PKI_INTRINSIC_ATOMIC_FETCH_LSHIFT: case PKI_INTRINSIC_ATOMIC_FETCH_RSHIFT:
    return true;
  default:
    return false;
  }
}

static bool atomic_void(pki_intrinsic k) {
  return k >= PKI_INTRINSIC_ATOMIC_ADD && k <= PKI_INTRINSIC_ATOMIC_DECREMENT;
}

static void ck_atomic(pki_ck *c, pki_expr *e) {
  pki_intrinsic k = e->intrinsic;
  int nv = atomic_values(k), nidx = e->nargs - 1 - nv;
  bool ok = ck_operand(c, e, PKI_VIEW, PKI_ACCESS_READ | PKI_ACCESS_WRITE, "a View");
  for (int i = 1; i < e->nargs && i <= nidx; i++)
    e->args[i] = ck_int_arg(c, e->args[i], "an atomic's index");
  for (int i = nidx > 0 ? nidx + 1 : 1; i < e->nargs; i++)
    e->args[i] = pki_ck_expr(c, e->args[i]);
  if (!ok)
    return;
  pki_type v = e->args[0]->type;
  if (nidx != v.rank) {
    pki_error(c->d, e->span, "atomic-index", "%s on View%dD '%s' needs %d ind%s, got %d",
              iname(e), v.rank, vname(e->args[0]), v.rank, v.rank == 1 ? "ex" : "ices",
              nidx < 0 ? 0 : nidx);
    return;
  }
  if (atomic_int_only(k) && pki_is_float(v.elem)) {
    pki_error(c->d, e->span, "atomic-type", "%s needs an integer View; '%s' holds %s",
              iname(e), vname(e->args[0]), pki_kind_name(v.elem));
    return;
  }
  for (int i = 1; i <= nidx; i++) {
    int64_t x;
    if (e->args[i] && pki_const_int(e->args[i], &x) && x < 0)
      pki_error(c->d, e->args[i]->span, "negative-index",
                "negative index %lld: Kokkos Views do not wrap around as Python lists do; "
                "write %s.extent(%d) - %lld for this index", (long long)x,
                vname(e->args[0]), i - 1, (long long)-x);
  }
  pki_type el = pki_scalar(v.elem);
  const char *place = pki_sprintf(c->m->arena, "to %s element of View%dD '%s'",
                                  pki_kind_name(v.elem), v.rank, vname(e->args[0]));
  for (int i = 1 + nidx; i < e->nargs; i++)
    e->args[i] = pki_ck_store(c, e->args[i], el, e->args[i] ? e->args[i]->span : e->span,
                              "atomically apply", place);
  e->type = atomic_void(k) ? pki_void_type : el;
}

/* ------------------------------------------------------------------ random */

static pki_kind rand_kind(pki_intrinsic k) {
  switch (k) {
  case PKI_INTRINSIC_RAND_FRAND: return PKI_F32;
  case PKI_INTRINSIC_RAND_URAND: return PKI_U32;
  case PKI_INTRINSIC_RAND_URAND64: return PKI_U64;
  case PKI_INTRINSIC_RAND_RAND: return PKI_I32;
  case PKI_INTRINSIC_RAND_RAND64: return PKI_I64;
  default: return PKI_F64; /* drand, normal */
  }
}

static void ck_random(pki_ck *c, pki_expr *e) {
  pki_intrinsic k = e->intrinsic;
  if (k == PKI_INTRINSIC_POOL_GET_STATE || k == PKI_INTRINSIC_POOL_FREE_STATE) {
    bool ok = ck_operand(c, e, PKI_POOL, PKI_ACCESS_READ, "a random pool");
    if (k == PKI_INTRINSIC_POOL_GET_STATE) {
      if (ok)
        e->type = (pki_type){.kind = PKI_RAND_STATE, .rank = e->args[0]->type.rank};
      return;
    }
    pki_expr *st = e->args[1] = pki_ck_expr(c, e->nargs > 1 ? e->args[1] : NULL);
    if (ok && st && st->type.kind != PKI_VOID &&
        (st->type.kind != PKI_RAND_STATE || st->type.rank != e->args[0]->type.rank))
      pki_error(c->d, st->span, "bad-intrinsic",
                "free_state needs a state from this pool's get_state(), got %s",
                tstr(c, st->type));
    return;
  }
  bool ok = ck_operand(c, e, PKI_RAND_STATE, 0, "a random state (pool.get_state())");
  pki_type r = pki_scalar(rand_kind(k));
  const char *place = pki_sprintf(c->m->arena, "to a %s bound of %s", pki_kind_name(r.kind),
                                  iname(e));
  for (int i = 1; i < e->nargs; i++) {
    e->args[i] = pki_ck_expr(c, e->args[i]);
    e->args[i] = pki_ck_store(c, e->args[i], r, e->args[i] ? e->args[i]->span : e->span,
                              "pass", place);
  }
  if (ok)
    e->type = r;
}

/* ----------------------------------------------------------------- subview */

static void ck_slice(pki_ck *c, pki_expr *s) {
  s->type = pki_void_type;
  for (int i = 0; i < s->nargs; i++)
    if (s->args[i])
      s->args[i] = ck_int_arg(c, s->args[i], "a slice bound");
}

static void ck_subview(pki_ck *c, pki_expr *e) {
  /* the base's access comes from what the subview is used for: a local
     holding it passes its access on; anything else counts as read+write */
  pki_expr *base = e->nargs > 0 ? e->args[0] : NULL;
  bool ok = ck_operand(c, e, PKI_VIEW, PKI_ACCESS_READ | PKI_ACCESS_WRITE, "a View");
  int keep = 0;
  for (int i = 1; i < e->nargs; i++) {
    pki_expr *a = e->args[i];
    if (a && a->kind == PKI_E_SLICE) {
      ck_slice(c, a);
      keep++;
    } else {
      e->args[i] = ck_int_arg(c, a, "a subview index");
    }
  }
  if (!ok)
    return;
  pki_type v = base->type;
  if (e->nargs - 1 != v.rank) {
    pki_error(c->d, e->span, "subview", "a subview of View%dD '%s' needs %d ind%s or slices, got %d",
              v.rank, vname(base), v.rank, v.rank == 1 ? "ex" : "ices", e->nargs - 1);
    return;
  }
  if (keep == 0) {
    pki_error(c->d, e->span, "subview",
              "this subview keeps no dimension; index the View directly: %s[...]",
              vname(base));
    return;
  }
  pki_type t = v;
  t.rank = keep;
  t.layout = PKI_LAYOUT_STRIDE;
  e->type = t;
}

bool pki_ck_view_local_ok(const pki_expr *value) {
  value = pki_uncast(value);
  return value && value->kind == PKI_E_INTRINSIC &&
         (value->intrinsic == PKI_INTRINSIC_SUBVIEW ||
          value->intrinsic == PKI_INTRINSIC_SCRATCH_VIEW);
}

/* ------------------------------------------------------------- dispatcher */

static void ck_team_method(pki_ck *c, pki_expr *e) {
  if (!ck_operand(c, e, PKI_TEAM_MEMBER, 0, "the pk.TeamMember"))
    return;
  if (e->intrinsic == PKI_INTRINSIC_TEAM_BARRIER)
    e->type = pki_void_type;
  else if (e->intrinsic == PKI_INTRINSIC_TEAM_BROADCAST) {
    e->args[1] = pki_ck_expr(c, e->args[1]);
    e->args[2] = pki_ck_expr(c, e->args[2]);
    e->type = pki_void_type;
  }
  else if (e->intrinsic == PKI_INTRINSIC_TEAM_SCRATCH ||
           e->intrinsic == PKI_INTRINSIC_THREAD_SCRATCH)
    pki_error(c->d, e->span, "bad-scratch",
              "%s(level) can only be the first argument of pk.ScratchView1D/2D/3D", iname(e));
  else
    e->type = pki_int_type;
}

/* pk.inclusive_scan(m, view): the pk.TeamMember and a rank-1 View of numbers
 * that the team scans in place; a statement of the team body (every thread
 * takes part, as in m.team_barrier()). */
static void ck_team_scan(pki_ck *c, pki_expr *e) {
  e->type = pki_void_type;
  if (!ck_operand(c, e, PKI_TEAM_MEMBER, 0, "the pk.TeamMember"))
    return;
  pki_expr *v = e->args[1];
  if (v->kind == PKI_E_VAR) { /* read and written in place */
    v->type = v->var ? v->var->type : pki_void_type;
    pki_ck_mark(v->var, PKI_ACCESS_READ | PKI_ACCESS_WRITE);
  } else {
    v = e->args[1] = pki_ck_expr(c, v);
  }
  if (v->type.kind != PKI_VOID && (v->type.kind != PKI_VIEW || v->type.rank != 1 ||
                                   !pki_is_numeric(v->type.elem))) {
    pki_error(c->d, v->span, "bad-intrinsic",
              "pk.inclusive_scan(m, view) scans a rank-1 View of numbers, but '%s' is %s",
              vname(v), tstr(c, v->type));
    return;
  }
  if (c->f && c->f->is_closure)
    pki_error(c->d, e->span, "collective-in-closure",
              "pk.inclusive_scan(m, view) is a team collective: call it in the team body, "
              "not in the closure of a nested pattern or pk.single");
}

/* pk.lower_bound / pk.upper_bound(view, n, value): a rank-1 View of numbers
 * (scratch too), an integer count and a number; an int64 index. */
static void ck_search(pki_ck *c, pki_expr *e) {
  if (!ck_operand(c, e, PKI_VIEW, PKI_ACCESS_READ, "a View of numbers"))
    return;
  const pki_type vt = e->args[0]->type;
  e->args[1] = pki_ck_expr(c, e->args[1]);
  e->args[2] = pki_ck_expr(c, e->args[2]);
  if (vt.rank != 1 || !pki_is_numeric(vt.elem)) {
    pki_error(c->d, e->args[0]->span, "bad-intrinsic",
              "%s searches a rank-1 View of numbers, but '%s' is %s", iname(e),
              vname(e->args[0]), tstr(c, vt));
    return;
  }
  if (e->args[1]->type.kind != PKI_VOID && !pki_is_int(e->args[1]->type.kind)) {
    pki_error(c->d, e->args[1]->span, "bad-intrinsic",
              "%s takes the number of sorted elements as an integer, not %s", iname(e),
              tstr(c, e->args[1]->type));
    return;
  }
  if (e->args[2]->type.kind != PKI_VOID && !pki_is_numeric(e->args[2]->type.kind)) {
    pki_error(c->d, e->args[2]->span, "bad-intrinsic",
              "%s compares the View's elements with a number, not %s", iname(e),
              tstr(c, e->args[2]->type));
    return;
  }
  e->type = pki_int_type;
}

static void ck_timer(pki_ck *c, pki_expr *e) {
  switch (e->intrinsic) {
  case PKI_INTRINSIC_TIMER_NEW: e->type = pki_scalar(PKI_TIMER); break;
  case PKI_INTRINSIC_TIMER_SECONDS:
    if (ck_operand(c, e, PKI_TIMER, PKI_ACCESS_READ, "a pk.Timer"))
      e->type = pki_float_type;
    break;
  case PKI_INTRINSIC_TIMER_RESET:
    ck_operand(c, e, PKI_TIMER, PKI_ACCESS_READ, "a pk.Timer");
    break;
  default: break;
  }
}

/* ------------------------------------------------------------- BinSort */

/* args[i] checked as a number and converted to t ("what" names it). */
static bool ck_number(pki_ck *c, pki_expr *e, int i, pki_type t, const char *what) {
  pki_expr *a = e->args[i] = pki_ck_expr(c, e->args[i]);
  if (!a || a->type.kind == PKI_VOID)
    return false;
  if (!pki_is_numeric(a->type.kind)) {
    pki_error(c->d, a->span, "type-mismatch", "the %s of %s must be a number, got %s", what,
              iname(e), tstr(c, a->type));
    return false;
  }
  e->args[i] = pki_ck_conv(c, a, t);
  return true;
}

/* The key View of a BinOp/BinSort constructor (args[0]): rank 1 for a 1-D
 * BinOp, rank 2 (n x 3) for a 3-D one. */
static bool ck_keys(pki_ck *c, pki_expr *e, int rank) {
  pki_expr *k = e->args[0] = pki_ck_expr(c, e->args[0]);
  if (!k || k->type.kind == PKI_VOID)
    return false;
  if (k->type.kind != PKI_VIEW || (rank && k->type.rank != rank)) {
    pki_error(c->d, k->span, "bad-binsort", "the keys of %s must be a View%dD, got %s",
              iname(e), rank ? rank : 1, tstr(c, k->type));
    return false;
  }
  return true;
}

static void ck_binop_new(pki_ck *c, pki_expr *e) {
  bool three = e->nargs == 10;
  if (!ck_keys(c, e, three ? 2 : 1))
    return;
  pki_type key = e->args[0]->type;
  bool ok = true;
  for (int i = 1; i < e->nargs; i++) {
    bool nb = three ? i <= 3 : i == 1;
    ok &= ck_number(c, e, i, nb ? pki_int_type : pki_scalar(key.elem),
                    nb ? "bin count" : i < (three ? 7 : 3) ? "minimum" : "maximum");
  }
  if (ok)
    e->type = (pki_type){.kind = PKI_BINOP, .elem = key.elem, .rank = key.rank,
                         .layout = key.layout, .length = three ? 3 : 1};
}

static void ck_binsort_new(pki_ck *c, pki_expr *e) {
  if (!ck_keys(c, e, 0))
    return;
  pki_type key = e->args[0]->type;
  bool ok = ck_number(c, e, 1, pki_int_type, "begin") & ck_number(c, e, 2, pki_int_type, "end");
  pki_expr *op = e->args[3] = pki_ck_expr(c, e->args[3]);
  if (!op || op->type.kind == PKI_VOID)
    return;
  if (op->type.kind != PKI_BINOP) {
    pki_error(c->d, op->span, "bad-binsort", "the bin operator of pk.BinSort must be a "
              "pk.BinOp1D or pk.BinOp3D, got %s", tstr(c, op->type));
    return;
  }
  if (op->type.elem != key.elem || op->type.rank != key.rank || op->type.layout != key.layout) {
    pki_error(c->d, op->span, "bad-binsort", "pk.BinSort's keys (%s) and its bin operator's "
              "keys (%s) must be the same kind of View", tstr(c, key),
              tstr(c, pki_view(op->type.elem, op->type.rank, op->type.layout)));
    return;
  }
  ok &= ck_number(c, e, 4, pki_bool_type, "sort_within_bins");
  if (ok)
    e->type = (pki_type){.kind = PKI_BINSORT, .elem = key.elem, .rank = key.rank,
                         .layout = key.layout, .length = op->type.length};
}

static void ck_binsort(pki_ck *c, pki_expr *e) {
  pki_intrinsic k = e->intrinsic;
  if (k == PKI_INTRINSIC_BINOP_NEW) {
    ck_binop_new(c, e);
    return;
  }
  if (k == PKI_INTRINSIC_BINSORT_NEW) {
    ck_binsort_new(c, e);
    return;
  }
  if (!ck_operand(c, e, PKI_BINSORT, PKI_ACCESS_READ, "a pk.BinSort"))
    return;
  if (k == PKI_INTRINSIC_BINSORT_SORT) {
    pki_expr *v = e->args[1] = pki_ck_expr(c, e->args[1]);
    if (v && v->type.kind != PKI_VOID && v->type.kind != PKI_VIEW)
      pki_error(c->d, v->span, "bad-binsort", "sorter.sort() permutes a View, got %s",
                tstr(c, v->type));
    else if (v && v->kind == PKI_E_VAR)
      pki_ck_mark(v->var, PKI_ACCESS_READ | PKI_ACCESS_WRITE);
    for (int i = 2; i < e->nargs; i++)
      ck_number(c, e, i, pki_int_type, i == 2 ? "begin" : "end");
  } else if (k != PKI_INTRINSIC_BINSORT_CREATE) {
    /* get_bin_count/offsets/permute_vector: only copied into a View member */
    if (!e->ival)
      pki_error(c->d, e->span, "bad-binsort",
                "the result of sorter.%s() can only be copied into a View data member: "
                "self.x = sorter.%s()", iname(e) + 2, iname(e) + 2);
    e->type = pki_view(PKI_I32, 1, PKI_LAYOUT_DEFAULT);
  }
}

static bool ck_arity(pki_ck *c, pki_expr *e) {
  if ((unsigned)e->intrinsic >= PKI_INTRINSIC_COUNT) {
    pki_error(c->d, e->span, "bad-intrinsic", "unknown pk operation");
    return false;
  }
  const pki_builtin_info *in = &pki_intrinsics[e->intrinsic];
  if (e->nargs >= in->min_args && e->nargs <= in->max_args)
    return true;
  pki_error(c->d, e->span, "bad-intrinsic", "%s takes %d to %d arguments, got %d", in->py_name,
            in->min_args, in->max_args, e->nargs);
  return false;
}

void pki_ck_intrinsic(pki_ck *c, pki_expr *e, bool as_stmt) {
  pki_type preset = e->type;
  e->type = pki_void_type;
  if (!ck_arity(c, e) || !ck_context(c, e)) {
    for (int i = 0; i < e->nargs; i++)
      if (e->args[i] && e->args[i]->kind != PKI_E_SLICE && e->args[i]->kind != PKI_E_INTRINSIC)
        e->args[i] = pki_ck_expr(c, e->args[i]);
    return;
  }
  pki_intrinsic k = e->intrinsic;
  if (k == PKI_INTRINSIC_SCRATCH_VIEW) {
    e->type = preset;
    ck_scratch_view(c, e);
  } else if (k <= PKI_INTRINSIC_THREAD_SCRATCH) {
    ck_team_method(c, e);
  } else if (k <= PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE) {
    ck_atomic(c, e);
  } else if (k <= PKI_INTRINSIC_RAND_NORMAL) {
    ck_random(c, e);
  } else if (k == PKI_INTRINSIC_SUBVIEW) {
    ck_subview(c, e);
  } else if (k == PKI_INTRINSIC_LOWER_BOUND || k == PKI_INTRINSIC_UPPER_BOUND) {
    ck_search(c, e);
  } else if (k == PKI_INTRINSIC_TEAM_INCLUSIVE_SCAN) {
    ck_team_scan(c, e);
  } else if (k == PKI_INTRINSIC_FENCE) {
    e->type = pki_void_type;
  } else if (k >= PKI_INTRINSIC_BINOP_NEW && k <= PKI_INTRINSIC_BINSORT_PERMUTE) {
    ck_binsort(c, e);
  } else if (k == PKI_INTRINSIC_SCRATCH_SHMEM) {
    e->type = preset; /* int64, elem = the scratch View's element kind */
    for (int i = 0; i < e->nargs; i++)
      e->args[i] = ck_extent(c, e->args[i]);
  } else {
    ck_timer(c, e);
  }
  bool void_op = k == PKI_INTRINSIC_TEAM_BARRIER || k == PKI_INTRINSIC_TEAM_BROADCAST ||
                 k == PKI_INTRINSIC_TEAM_INCLUSIVE_SCAN ||
                 k == PKI_INTRINSIC_POOL_FREE_STATE ||
                 k == PKI_INTRINSIC_TIMER_RESET || k == PKI_INTRINSIC_FENCE ||
                 k == PKI_INTRINSIC_BINSORT_CREATE || k == PKI_INTRINSIC_BINSORT_SORT ||
                 atomic_void(k);
  if (!as_stmt && void_op)
    pki_error(c->d, e->span, "bad-call",
              "%s returns no value, so it cannot be used in an expression", iname(e));
  else if (as_stmt && !void_op && k != PKI_INTRINSIC_POOL_GET_STATE &&
           !(k >= PKI_INTRINSIC_ATOMIC_FETCH_ADD && k <= PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE))
    pki_error(c->d, e->span, "bad-statement",
              "the value of %s is discarded; assign it to a local", iname(e));
}

/* ------------------------------------------------------------- classtypes */

void pki_ck_field(pki_ck *c, pki_expr *e, unsigned access) {
  e->type = pki_void_type;
  pki_expr *r = e->nargs > 0 ? e->args[0] : NULL;
  pki_entity *cls = NULL;
  if (r && r->kind == PKI_E_VAR && r->var && r->var->kind == PKI_VAR_ACC && !e->var) {
    /* acc.val / acc.loc of a MaxLoc/MinLoc accumulator, acc.min_val ... of a
     * MinMax/MinMaxLoc one (set by the frontend) */
    r->type = r->var->type; /* the struct itself, not read whole (ck_var) */
    e->type = strstr(e->str, "loc") ? pki_int_type : r->type;
    pki_ck_mark(r->var, access | PKI_ACCESS_READ);
    return;
  }
  if (r) {
    if (pki_ck_class_elem(r) && (access & PKI_ACCESS_WRITE))
      pki_ck_target(c, r, PKI_ACCESS_READ | PKI_ACCESS_WRITE); /* p[i].x = ...: writes p */
    else
      e->args[0] = r = pki_ck_expr(c, r);
    if (r->type.kind == PKI_VOID)
      return;
    if (r->type.kind != PKI_CLASS || !r->type.cls) {
      pki_error(c->d, e->span, "bad-field", "'%s' is %s; only classtype values have fields",
                vname(r), tstr(c, r->type));
      return;
    }
    cls = r->type.cls;
  } else {
    cls = c->f ? pki_root_func(c->f)->owner : NULL; /* implicit self */
  }
  if (!e->var && cls && e->str)
    e->var = pki_entity_member(cls, e->str);
  if (!e->var) {
    pki_error(c->d, e->span, "bad-field", "classtype '%s' has no field '%s'",
              cls ? cls->name : "?", e->str ? e->str : "?");
    return;
  }
  if (!e->str)
    e->str = e->var->name;
  e->type = e->var->type;
  pki_ck_mark(e->var, access);
}

/* The classtype's __init__, or NULL. */
static pki_func *ctor_of(const pki_entity *cls) {
  for (int i = 0; cls && i < cls->nfuncs; i++)
    if (cls->funcs[i] && (cls->funcs[i]->is_ctor || strcmp(cls->funcs[i]->name, "__init__") == 0))
      return cls->funcs[i];
  return NULL;
}

static bool explicit_self(const pki_func *g) {
  return g->nparams > 0 && g->params[0] && g->params[0]->type.kind == PKI_CLASS &&
         g->params[0]->type.cls == g->owner && strcmp(g->params[0]->name, "self") == 0;
}

pki_var *pki_ck_param_for(pki_func *g, int i) {
  if (!g->is_method || g->is_ctor || explicit_self(g))
    return i < g->nparams ? g->params[i] : NULL;
  return i >= 1 && i - 1 < g->nparams ? g->params[i - 1] : NULL;
}

void pki_ck_construct(pki_ck *c, pki_expr *e) {
  pki_entity *cls = e->type.kind == PKI_CLASS ? e->type.cls : NULL;
  for (int i = 0; i < e->nargs; i++)
    e->args[i] = pki_ck_expr(c, e->args[i]);
  if (!cls) {
    pki_error(c->d, e->span, "bad-construct", "constructing an unknown classtype");
    e->type = pki_void_type;
    return;
  }
  if (pki_ck_in_main(c)) {
    pki_error(c->d, e->span, "bad-construct",
              "classtype '%s' can only be constructed inside kernels", cls->name);
    return;
  }
  pki_func *g = e->func ? e->func : ctor_of(cls);
  if (!g)
    return; /* no __init__: fields only */
  int skip = explicit_self(g) ? 1 : 0;
  if (e->nargs != g->nparams - skip) {
    pki_error(c->d, e->span, "bad-construct", "%s(...) takes %d argument%s, got %d", cls->name,
              g->nparams - skip, g->nparams - skip == 1 ? "" : "s", e->nargs);
    return;
  }
  for (int i = 0; i < e->nargs; i++) {
    pki_var *p = g->params[i + skip];
    if (!e->args[i] || !p)
      continue;
    const char *place = pki_sprintf(c->m->arena, "to %s parameter '%s' of %s()",
                                    tstr(c, p->type), p->name, cls->name);
    e->args[i] = pki_ck_store(c, e->args[i], p->type, e->args[i]->span, "pass", place);
  }
}

/* ------------------------------------------------------------------ lists */

void pki_ck_list(pki_ck *c, pki_expr *e, pki_type want) {
  if (!e)
    return;
  pki_kind k = PKI_VOID;
  bool ok = true;
  for (int i = 0; i < e->nargs; i++) {
    pki_expr *a = e->args[i] = pki_ck_expr(c, e->args[i]);
    pki_kind ak = kind_of(a);
    if (ak == PKI_VOID) {
      ok = false;
      continue;
    }
    if (!pki_is_numeric(ak)) {
      pki_error(c->d, a->span, "bad-list", "List elements must be numbers, got %s",
                tstr(c, a->type));
      ok = false;
      continue;
    }
    if (k == PKI_VOID)
      k = ak;
    else if (k != ak)
      k = pki_is_float(k) || pki_is_float(ak) ? PKI_F64 : PKI_I64;
  }
  if (k != PKI_BOOL && pki_is_int(k) && k != PKI_U64)
    k = PKI_I64; /* Python ints */
  e->type = pki_void_type;
  if (want.kind == PKI_ARRAY) {
    if (want.length && e->nargs != want.length) {
      pki_error(c->d, e->span, "bad-list", "the List has %d element%s, the annotation says %d",
                e->nargs, e->nargs == 1 ? "" : "s", want.length);
      return;
    }
    k = want.elem;
  } else if (e->nargs == 0) {
    pki_error(c->d, e->span, "bad-list",
              "cannot infer the type of an empty list; annotate it: xs: List[float] = [0.0]");
    return;
  }
  if (!ok)
    return;
  pki_type el = pki_scalar(k);
  for (int i = 0; i < e->nargs; i++)
    e->args[i] = pki_ck_store(c, e->args[i], el, e->args[i]->span, "store",
                              pki_sprintf(c->m->arena, "in a List[%s]", pki_kind_name(k)));
  e->type = pki_array_type(k, e->nargs);
}

/* ---- a classtype's __init__ reads a field only after assigning it */

typedef struct init_order {
  pki_ck *c;
  const pki_entity *cls;
  pki_vec set; /* the fields assigned so far, in source order (or reported) */
} init_order;

static void order_read(pki_visitor *v, const pki_expr *e) {
  init_order *o = v->data;
  if (e->kind != PKI_E_VAR || !e->var || e->var->kind != PKI_VAR_MEMBER ||
      pki_vec_has(&o->set, e->var))
    return;
  pki_error(o->c->d, e->span, "field-before-init",
            "'self.%s' is read before __init__ of classtype '%s' assigns it (Python raises "
            "AttributeError there); assign 'self.%s' first", e->var->name, o->cls->name,
            e->var->name);
  pki_vec_push(o->c->m->arena, &o->set, e->var); /* reported once */
}

/* self.f = value: value is read before f counts as assigned (self.f += v reads f). */
static void order_stmt(pki_visitor *v, const pki_stmt *s) {
  init_order *o = v->data;
  const pki_expr *t = s->target;
  if (!t || t->kind != PKI_E_VAR || !t->var || t->var->kind != PKI_VAR_MEMBER)
    return;
  if (s->kind == PKI_S_AUGASSIGN)
    order_read(v, t);
  pki_visit_expr(v, s->value);
  if (!pki_vec_has(&o->set, t->var))
    pki_vec_push(o->c->m->arena, &o->set, t->var);
}

/* A target is written, not read: only its indices are. */
static void order_target(pki_visitor *v, const pki_stmt *s, const pki_expr *t) {
  (void)s;
  for (int i = 1; t->kind == PKI_E_INDEX && i < t->nargs; i++)
    pki_visit_expr(v, t->args[i]);
}

void pki_ck_init_order(pki_ck *c, pki_entity *e) {
  pki_func *f = e->kind == PKI_ENT_CLASSTYPE ? ctor_of(e) : NULL;
  if (!f)
    return;
  init_order o = {.c = c, .cls = e};
  pki_visitor v = {.expr = order_read, .stmt = order_stmt, .target = order_target, .data = &o};
  pki_visit_func(&v, f);
}

/* Views of classtype values (docs/DIALECT.md 3.4): arguments of FunctionSty
 * workunits only (the functor is a template per layout), at most
 * PKI_MAX_CLASS_VIEWS of them (2^n instantiations). */
void pki_ck_class_views(pki_ck *c, pki_entity *e) {
  for (int i = 0; i < e->nmembers; i++)
    if (pki_is_class_view(e->members[i]->type))
      pki_error(c->d, e->members[i]->span, "class-view",
                "data member 'self.%s' is a View of classtype '%s', which only a FunctionSty "
                "@pk.workunit can take for now; pass it as a workunit argument",
                e->members[i]->name, e->members[i]->type.cls->name);
  for (int j = 0; j < e->nfuncs; j++) {
    pki_func *f = e->funcs[j];
    int n = 0;
    for (int k = 0; f && k < f->nparams; k++) {
      pki_var *p = f->params[k];
      if (!pki_is_class_view(p->type))
        continue;
      const char *why = pki_class_view_field_error(c->m->arena, p->type.cls);
      if (why) /* inferred: no annotation checked it */
        pki_error(c->d, p->span, "class-view", "%s", why);
      if (!f->is_workunit || e->kind != PKI_ENT_WORKUNIT)
        pki_error(c->d, p->span, "class-view",
                  "parameter '%s' of '%s' is a View of classtype '%s', which only a "
                  "FunctionSty @pk.workunit can take for now; pass its element %s[i] (a %s) "
                  "instead", p->name, f->name, p->type.cls->name, p->name, p->type.cls->name);
      else if (++n > PKI_MAX_CLASS_VIEWS)
        pki_error(c->d, p->span, "class-view",
                  "'%s' takes more than %d Views of classtypes (each doubles the kernels "
                  "built: AoS and SoA); pass fewer", f->name, PKI_MAX_CLASS_VIEWS);
    }
  }
}
