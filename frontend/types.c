/*
 * types.c - type annotations to pki_types: Python scalars, pk.* and numpy
 * scalar spellings, pk.View1D..8D[T] and pk.Acc[T].
 */
#include "fe.h"

#include <stdlib.h>

typedef struct { const char *name; pki_kind kind; } named_kind;

static const named_kind pk_scalars[] = {
    {"int8", PKI_I8},     {"int16", PKI_I16},   {"int32", PKI_I32},
    {"int64", PKI_I64},   {"uint8", PKI_U8},    {"uint16", PKI_U16},
    {"uint32", PKI_U32},  {"uint64", PKI_U64},  {"float32", PKI_F32},
    {"float", PKI_F32},   {"float64", PKI_F64}, {"double", PKI_F64},
    {"bool", PKI_BOOL},   {NULL, PKI_VOID}};

static const named_kind np_scalars[] = {
    {"int8", PKI_I8},       {"int16", PKI_I16},   {"int32", PKI_I32},
    {"int64", PKI_I64},     {"uint8", PKI_U8},    {"uint16", PKI_U16},
    {"uint32", PKI_U32},    {"uint64", PKI_U64},  {"float32", PKI_F32},
    {"float64", PKI_F64},   {"double", PKI_F64},  {"single", PKI_F32},
    {"bool_", PKI_BOOL},    {"intc", PKI_I32},    {NULL, PKI_VOID}};

static pki_kind find_kind(pkf_ctx *c, const named_kind *t, TSNode n) {
  for (; t->name; t++)
    if (pkf_is(c, n, t->name))
      return t->kind;
  return PKI_VOID;
}

TSNode pkf_unwrap_type(TSNode ann) {
  while (pkf_type_is(ann, "type") || pkf_type_is(ann, "parenthesized_expression")) {
    TSNode in = ts_node_named_child(ann, 0);
    if (ts_node_is_null(in))
      break;
    ann = in;
  }
  return ann;
}

/* pk.NAME (object is a pykokkos alias): returns the NAME node, or null. */
static TSNode pk_attr(pkf_ctx *c, TSNode n) {
  if (pkf_type_is(n, "attribute") && pkf_alias_is(c, pkf_field(n, "object"), PKF_AL_PK))
    return pkf_field(n, "attribute");
  return (TSNode){0};
}

bool pkf_is_acc(pkf_ctx *c, TSNode ann) {
  ann = pkf_unwrap_type(ann);
  return pkf_type_is(ann, "subscript") && pkf_is(c, pk_attr(c, pkf_field(ann, "value")), "Acc");
}

bool pkf_is_team_member(pkf_ctx *c, TSNode ann) {
  ann = pkf_unwrap_type(ann);
  return pkf_is(c, pk_attr(c, ann), "TeamMember");
}

static bool bad_type(pkf_ctx *c, TSNode n, const char *why) {
  pki_error(c->d, pkf_span(n), "unknown-type", "%s type '%s'%s", why, pkf_text(c, n),
            "; use int, float, bool, pk.int32/int64/float32/float64..., "
            "pk.View1D[T]..pk.View8D[T] or pk.Acc[T]");
  return false;
}

static bool scalar_type(pkf_ctx *c, TSNode n, bool as_elem, pki_type *out) {
  pki_kind k = PKI_VOID;
  if (pkf_type_is(n, "identifier")) {
    if (pkf_is(c, n, "int"))
      k = as_elem ? PKI_I32 : PKI_I64;
    else if (pkf_is(c, n, "float"))
      k = PKI_F64;
    else if (pkf_is(c, n, "bool"))
      k = PKI_BOOL;
  } else if (pkf_type_is(n, "attribute")) {
    TSNode obj = pkf_field(n, "object"), attr = pkf_field(n, "attribute");
    if (pkf_alias_is(c, obj, PKF_AL_PK))
      k = find_kind(c, pk_scalars, attr);
    else if (pkf_alias_is(c, obj, PKF_AL_NP))
      k = find_kind(c, np_scalars, attr);
  }
  if (k == PKI_VOID)
    return false;
  *out = pki_scalar(k);
  return true;
}

/* pk.ViewND[T] / pk.Acc[T] */
static bool generic_type(pkf_ctx *c, TSNode n, bool as_elem, pki_type *out) {
  TSNode name = pk_attr(c, pkf_field(n, "value"));
  if (ts_node_is_null(name))
    return bad_type(c, n, "unknown");
  pkf_nodes args = pkf_children(c, n);
  /* args.v[0] is the value; the rest are subscripts */
  if (args.n < 2)
    return bad_type(c, n, "unknown");
  TSNode arg = args.v[1];
  if (pkf_is(c, name, "Acc")) {
    if (args.n != 2 || !scalar_type(c, pkf_unwrap_type(arg), false, out))
      return bad_type(c, n, "unsupported accumulator");
    return true;
  }
  const char *nm = pkf_text(c, name);
  int rank = 0;
  if (strncmp(nm, "View", 4) == 0 && nm[4] >= '1' && nm[4] <= '8' && strcmp(nm + 5, "D") == 0)
    rank = nm[4] - '0';
  if (!rank)
    return bad_type(c, n, "unknown");
  pki_type elem;
  if (!scalar_type(c, pkf_unwrap_type(arg), true, &elem)) {
    pki_error(c->d, pkf_span(arg), "unknown-type",
              "unknown View element type '%s'; use int, float, bool or pk.int32/"
              "int64/float32/float64...", pkf_text(c, arg));
    return false;
  }
  if (args.n > 2) {
    pki_error(c->d, pkf_span(args.v[2]), "unsupported-type",
              "layout arguments in View annotations are not supported yet; "
              "annotate as pk.View%dD[T] and set the layout with pk.ViewTypeInfo", rank);
    return false;
  }
  *out = pki_view(elem.kind, rank, PKI_LAYOUT_DEFAULT);
  (void)as_elem;
  return true;
}

bool pkf_type(pkf_ctx *c, TSNode ann, bool as_elem, pki_type *out) {
  TSNode n = pkf_unwrap_type(ann);
  if (scalar_type(c, n, as_elem, out))
    return true;
  if (pkf_type_is(n, "subscript"))
    return generic_type(c, n, as_elem, out);
  if (pkf_type_is(n, "none")) {
    *out = pki_void_type;
    return true;
  }
  return bad_type(c, n, "unknown");
}
