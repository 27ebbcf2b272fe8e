/*
 * binsort.c - Kokkos::BinSort in the host code of @pk.main (entities helper):
 * pk.BinOp1D / pk.BinOp3D and pk.BinSort constructors and the sorter's
 * methods, lowered to the BINOP_NEW .. BINSORT_PERMUTE intrinsics that
 * pki_check types and the backend writes as Kokkos::BinOp1D/3D and
 * Kokkos::BinSort (int offsets, as PyKokkos' mini-apps read them).
 */
#include <string.h>

#include "ents.h"

static pki_expr *new_intrinsic(pkf_ctx *c, TSNode at, pki_intrinsic k, pki_expr **args, int n) {
  pki_expr *x = pki_new_expr_n(c->m, PKI_E_INTRINSIC, pkf_span(at), n);
  x->intrinsic = k;
  for (int i = 0; i < n; i++)
    x->args[i] = args[i];
  return x;
}

static bool in_main(pkf_ctx *c, TSNode call, const char *what) {
  if (c->host)
    return true;
  pki_error(c->d, pkf_span(call), "host-only",
            "%s is only available in the host code of a @pk.main method, not in kernels", what);
  return false;
}

static pki_expr *int_lit(pkf_ctx *c, TSNode at, int64_t v, pki_expr_kind kind) {
  pki_expr *x = pki_new_expr(c->m, kind, pkf_span(at));
  x->ival = v;
  return x;
}

/* nbins, min or max of pk.BinOp3D: a list literal [a, b, c] or a typing.List
 * local of length 3, as three expressions in out. */
static bool three(pkf_ctx *c, TSNode n, const char *what, pki_expr **out) {
  if (pkf_type_is(c, n, PKF_N_LIST)) {
    pkf_nodes el = pkf_children(c, n);
    if (el.n == 3) {
      for (int k = 0; k < 3; k++)
        if (!(out[k] = pkf_expr(c, el.v[k])))
          return false;
      return true;
    }
  } else if (pkf_type_is(c, n, PKF_N_IDENTIFIER)) {
    const char *nm = pkf_text(c, n);
    pki_var *v = pkf_lookup(c, nm, strlen(nm));
    if (v && v->type.kind == PKI_ARRAY && v->type.rank == 0 && v->type.length == 3) {
      for (int k = 0; k < 3; k++) {
        pki_expr *e = pki_new_expr_n(c->m, PKI_E_INDEX, pkf_span(n), 2);
        e->args[0] = pki_new_expr(c->m, PKI_E_VAR, pkf_span(n));
        e->args[0]->var = v;
        e->args[1] = int_lit(c, n, k, PKI_E_INT);
        out[k] = e;
      }
      return true;
    }
  }
  pki_error(c->d, pkf_span(n), "bad-binop",
            "the %s of pk.BinOp3D must be a list of three values [x, y, z] or a "
            "typing.List local of length 3", what);
  return false;
}

/* pk.BinOp1D(keys, nbins, min, max) / pk.BinOp3D(keys, nbins[3], min[3], max[3]). */
static bool binop_new(pkf_ctx *c, TSNode call, bool three_d, pki_expr **out) {
  const char *what = three_d ? "pk.BinOp3D" : "pk.BinOp1D";
  pkf_nodes a = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  if (!in_main(c, call, what))
    return true;
  if (a.n != 4) {
    pki_error(c->d, pkf_span(call), "arity",
              "%s in @pk.main takes the keys View first: %s(keys, nbins, min, max) (got %u "
              "argument%s)", what, what, a.n, a.n == 1 ? "" : "s");
    return true;
  }
  pki_expr *args[10];
  int n = 0;
  if (!(args[n++] = pkf_expr(c, a.v[0])))
    return true;
  if (three_d) {
    static const char *const names[] = {"nbins", "min", "max"};
    for (int k = 0; k < 3; k++, n += 3)
      if (!three(c, a.v[k + 1], names[k], args + n))
        return true;
  } else {
    for (int k = 1; k < 4; k++)
      if (!(args[n++] = pkf_expr(c, a.v[k])))
        return true;
  }
  *out = new_intrinsic(c, call, PKI_INTRINSIC_BINOP_NEW, args, n);
  return true;
}

/* pk.BinSort(keys, binop[, sort_within_bins]) or (keys, begin, end, binop[,
 * sort_within_bins]): always five arguments in the IR. */
static bool binsort_new(pkf_ctx *c, TSNode call, pki_expr **out) {
  pkf_nodes a = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  if (!in_main(c, call, "pk.BinSort"))
    return true;
  TSNode sw = {0};
  uint32_t np = a.n;
  if (np > 0 && pkf_type_is(c, a.v[np - 1], PKF_N_KEYWORD_ARGUMENT)) {
    if (!pkf_is(c, pkf_field(c, a.v[np - 1], PKF_F_NAME), "sort_within_bins")) {
      pki_error(c->d, pkf_span(a.v[np - 1]), "bad-binsort",
                "pk.BinSort takes the keyword sort_within_bins only");
      return true;
    }
    sw = pkf_field(c, a.v[np - 1], PKF_F_VALUE);
    np--;
  }
  bool kw = !ts_node_is_null(sw);
  if (np < 2 || np > 5 || (kw && (np == 3 || np == 5))) {
    pki_error(c->d, pkf_span(call), "arity",
              "pk.BinSort(keys, bin_op[, sort_within_bins]) or pk.BinSort(keys, begin, end, "
              "bin_op[, sort_within_bins])");
    return true;
  }
  bool ranged = np >= 4;
  if (np == 3 || np == 5)
    sw = a.v[np - 1];
  pki_expr *args[5];
  if (!(args[0] = pkf_expr(c, a.v[0])))
    return true;
  if (ranged) {
    if (!(args[1] = pkf_expr(c, a.v[1])) || !(args[2] = pkf_expr(c, a.v[2])))
      return true;
  } else {
    args[1] = int_lit(c, call, 0, PKI_E_INT);
    pki_expr *keys = pkf_expr(c, a.v[0]);
    args[2] = pki_new_expr_n(c->m, PKI_E_EXTENT, pkf_span(a.v[0]), 1);
    args[2]->args[0] = keys;
    args[2]->ival = 0;
  }
  if (!(args[3] = pkf_expr(c, a.v[ranged ? 3 : 1])))
    return true;
  args[4] = ts_node_is_null(sw) ? int_lit(c, call, 0, PKI_E_BOOL) : pkf_expr(c, sw);
  if (!args[4])
    return true;
  *out = new_intrinsic(c, call, PKI_INTRINSIC_BINSORT_NEW, args, 5);
  return true;
}

bool pkf_binsort_new(pkf_ctx *c, TSNode call, const char *name, pki_expr **out) {
  if (!strcmp(name, "BinOp1D") || !strcmp(name, "BinOp3D")) {
    *out = NULL;
    return binop_new(c, call, name[5] == '3', out);
  }
  if (!strcmp(name, "BinSort")) {
    *out = NULL;
    return binsort_new(c, call, out);
  }
  return false;
}

bool pkf_binsort_method(pkf_ctx *c, TSNode call, TSNode obj, pki_type t, const char *name,
                        pki_expr **out) {
  static const struct { const char *name; pki_intrinsic k; int lo, hi; } methods[] = {
      {"create_permute_vector", PKI_INTRINSIC_BINSORT_CREATE, 0, 1},
      {"sort", PKI_INTRINSIC_BINSORT_SORT, 1, 3},
      {"get_bin_count", PKI_INTRINSIC_BINSORT_COUNT, 0, 0},
      {"get_bin_offsets", PKI_INTRINSIC_BINSORT_OFFSETS, 0, 0},
      {"get_permute_vector", PKI_INTRINSIC_BINSORT_PERMUTE, 0, 0}};
  *out = NULL;
  if (t.kind == PKI_BINOP) {
    pki_error(c->d, pkf_span(call), "unsupported-function",
              "a pk.BinOp is only passed to pk.BinSort in @pk.main; it has no method '%s'", name);
    return true;
  }
  for (size_t m = 0; m < sizeof methods / sizeof *methods; m++) {
    if (strcmp(methods[m].name, name))
      continue;
    pkf_nodes a = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
    if ((int)a.n < methods[m].lo || (int)a.n > methods[m].hi || (m == 1 && a.n == 2)) {
      pki_error(c->d, pkf_span(call), "arity", "%s", m == 1
                ? "sorter.sort(values) or sorter.sort(values, begin, end)"
                : pki_sprintf(c->m->arena, "sorter.%s() takes no arguments", name));
      return true;
    }
    pki_expr *args[4];
    int n = 0;
    if (!(args[n++] = pkf_expr(c, obj)))
      return true;
    /* create_permute_vector(space): the execution space is the module's */
    for (uint32_t i = 0; i < a.n && methods[m].k != PKI_INTRINSIC_BINSORT_CREATE; i++)
      if (!(args[n++] = pkf_expr(c, a.v[i])))
        return true;
    *out = new_intrinsic(c, call, methods[m].k, args, n);
    return true;
  }
  pki_error(c->d, pkf_span(call), "unsupported-function",
            "pk.BinSort has the methods create_permute_vector(), sort(values[, begin, end]), "
            "get_bin_count(), get_bin_offsets() and get_permute_vector(); not '%s'", name);
  return true;
}
