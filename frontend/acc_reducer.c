/*
 * acc_reducer.c - the reducer a pk.Acc workunit's body is written for, where
 * no launch in its file names one (a helper passes `reducer=` on, as
 * upstream's examples/pykokkos/reducers.py does): `acc *= x` is a product,
 * `if x > acc.val: acc.val = x` a MaxLoc, `acc.min_val` a MinMax, ... The
 * shim checks at each launch that the reducer given is the one built.
 */
#include <string.h>

#include "fe.h"

typedef struct evidence {
  const char *acc;
  bool sum, prod, band, bor, land, lor, max_call, min_call;
  bool assign;            /* acc = x (Min/Max written as if x < acc: acc = x) */
  bool cmp_min, cmp_max;  /* x < acc / x > acc */
  bool val_gt, val_lt;    /* x > acc.val / x < acc.val */
  bool valloc, minmax, minmaxloc;
} evidence;

static bool is_acc(pkf_ctx *c, TSNode n, const evidence *e) {
  return pkf_type_is(c, n, PKF_N_IDENTIFIER) && pkf_is(c, n, e->acc);
}

/* acc.<field>: the field's name, else NULL. */
static const char *acc_field(pkf_ctx *c, TSNode n, const evidence *e) {
  if (!pkf_type_is(c, n, PKF_N_ATTRIBUTE) || !is_acc(c, pkf_field(c, n, PKF_F_OBJECT), e))
    return NULL;
  return pkf_text(c, pkf_field(c, n, PKF_F_ATTRIBUTE));
}

/* a < b or a > b (two operands): which side holds acc (or acc.val). */
static void comparison(pkf_ctx *c, TSNode n, evidence *e) {
  pkf_nodes all = pkf_all_children(c, n);
  if (all.n != 3)
    return;
  bool lt = pkf_is(c, all.v[1], "<") || pkf_is(c, all.v[1], "<=");
  bool gt = pkf_is(c, all.v[1], ">") || pkf_is(c, all.v[1], ">=");
  if (!lt && !gt)
    return;
  const char *fl = acc_field(c, all.v[0], e), *fr = acc_field(c, all.v[2], e);
  bool vl = fl && !strcmp(fl, "val"), vr = fr && !strcmp(fr, "val");
  if (vr || vl) /* x > acc.val or acc.val < x: a larger x wins */
    (gt == vr ? &e->val_gt : &e->val_lt)[0] = true;
  bool al = is_acc(c, all.v[0], e), ar = is_acc(c, all.v[2], e);
  if (ar || al) /* x < acc or acc > x: a smaller x wins */
    (lt == ar ? &e->cmp_min : &e->cmp_max)[0] = true;
}

static void assignment(pkf_ctx *c, TSNode n, evidence *e) {
  TSNode left = pkf_field(c, n, PKF_F_LEFT), right = pkf_field(c, n, PKF_F_RIGHT);
  if (!is_acc(c, left, e))
    return;
  if (pkf_type_is(c, n, PKF_N_AUGMENTED_ASSIGNMENT)) {
    TSNode op = pkf_field(c, n, PKF_F_OPERATOR);
    e->sum |= pkf_is(c, op, "+=") || pkf_is(c, op, "-=");
    e->prod |= pkf_is(c, op, "*=");
    e->band |= pkf_is(c, op, "&=");
    e->bor |= pkf_is(c, op, "|=");
    return;
  }
  if (pkf_type_is(c, right, PKF_N_BOOLEAN_OPERATOR) &&
      (is_acc(c, pkf_field(c, right, PKF_F_LEFT), e) ||
       is_acc(c, pkf_field(c, right, PKF_F_RIGHT), e))) {
    bool and = pkf_is(c, pkf_field(c, right, PKF_F_OPERATOR), "and");
    (and ? &e->land : &e->lor)[0] = true;
    return;
  }
  if (pkf_type_is(c, right, PKF_N_CALL)) {
    TSNode fn = pkf_field(c, right, PKF_F_FUNCTION);
    e->max_call |= pkf_is(c, fn, "max");
    e->min_call |= pkf_is(c, fn, "min");
    if (pkf_is(c, fn, "max") || pkf_is(c, fn, "min"))
      return;
  }
  if (pkf_type_is(c, right, PKF_N_BINARY_OPERATOR) &&
      (is_acc(c, pkf_field(c, right, PKF_F_LEFT), e))) { /* acc = acc + x, acc = acc * x */
    TSNode op = pkf_field(c, right, PKF_F_OPERATOR);
    e->sum |= pkf_is(c, op, "+") || pkf_is(c, op, "-");
    e->prod |= pkf_is(c, op, "*");
    return;
  }
  e->assign = true;
}

static void walk(pkf_ctx *c, TSNode n, evidence *e, int depth) {
  if (ts_node_is_null(n) || depth > 200)
    return;
  if (depth > 0 && pkf_type_is(c, n, PKF_N_FUNCTION_DEFINITION))
    return; /* a nested def has its own accumulator */
  if (pkf_type_is(c, n, PKF_N_ASSIGNMENT) || pkf_type_is(c, n, PKF_N_AUGMENTED_ASSIGNMENT))
    assignment(c, n, e);
  else if (pkf_type_is(c, n, PKF_N_COMPARISON_OPERATOR))
    comparison(c, n, e);
  const char *f = acc_field(c, n, e);
  if (f) {
    e->valloc |= !strcmp(f, "val") || !strcmp(f, "loc");
    e->minmax |= !strcmp(f, "min_val") || !strcmp(f, "max_val");
    e->minmaxloc |= !strcmp(f, "min_loc") || !strcmp(f, "max_loc");
  }
  pkf_nodes ch = pkf_all_children(c, n);
  for (uint32_t i = 0; i < ch.n; i++)
    walk(c, ch.v[i], e, depth + 1);
}

int pkf_reducer_from_body(pkf_ctx *c, TSNode def, const char *acc) {
  evidence e = {.acc = acc};
  walk(c, pkf_field(c, def, PKF_F_BODY), &e, 1);
  if (e.sum)
    return -1;
  int r = -1, kinds = 0;
#define PICK(cond, red) \
  if (cond) {           \
    r = (red);          \
    kinds++;            \
  }
  PICK(e.minmaxloc, PKI_REDUCER_MINMAXLOC)
  PICK(e.minmax && !e.minmaxloc, PKI_REDUCER_MINMAX)
  PICK(e.valloc && e.val_gt && !e.val_lt, PKI_REDUCER_MAXLOC)
  PICK(e.valloc && e.val_lt && !e.val_gt, PKI_REDUCER_MINLOC)
  PICK(e.prod, PKI_REDUCER_PROD)
  PICK(e.band, PKI_REDUCER_BAND)
  PICK(e.bor, PKI_REDUCER_BOR)
  PICK(e.land, PKI_REDUCER_LAND)
  PICK(e.lor, PKI_REDUCER_LOR)
  PICK(e.max_call || (e.assign && e.cmp_max && !e.cmp_min && !e.valloc), PKI_REDUCER_MAX)
  PICK(e.min_call || (e.assign && e.cmp_min && !e.cmp_max && !e.valloc), PKI_REDUCER_MIN)
#undef PICK
  return kinds == 1 ? r : -1;
}
