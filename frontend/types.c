/*
 * types.c - type annotations to pki_types: Python scalars, pk.* and numpy
 * scalar spellings, pk.View1D..8D[T] and pk.Acc[T], and the @pk.classtypes
 * annotations name.
 */
#include "ents.h"

#include <stdlib.h>

typedef struct { const char *name; pki_kind kind; } named_kind;

static const named_kind pk_scalars[] = {
    {"int8", PKI_I8},     {"int16", PKI_I16},   {"int32", PKI_I32},
    {"int64", PKI_I64},   {"uint8", PKI_U8},    {"uint16", PKI_U16},
    {"uint32", PKI_U32},  {"uint64", PKI_U64},  {"float32", PKI_F32},
    {"float", PKI_F32},   {"float64", PKI_F64}, {"double", PKI_F64},
    {"bool", PKI_BOOL},   {"int", PKI_I32} /* PyKokkos' pk.int */, {NULL, PKI_VOID}};

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

TSNode pkf_unwrap_type(pkf_ctx *c, TSNode ann) {
  while (pkf_type_is(c, ann, PKF_N_TYPE) || pkf_type_is(c, ann, PKF_N_PARENTHESIZED_EXPRESSION)) {
    TSNode in = pkf_named_child(c, ann, 0);
    if (ts_node_is_null(in))
      break;
    ann = in;
  }
  return ann;
}

/* pk.NAME (object is a pykokkos alias): returns the NAME node, or null. */
static TSNode pk_attr(pkf_ctx *c, TSNode n) {
  if (pkf_type_is(c, n, PKF_N_ATTRIBUTE) &&
      pkf_alias_is(c, pkf_field(c, n, PKF_F_OBJECT), PKF_AL_PK))
    return pkf_field(c, n, PKF_F_ATTRIBUTE);
  return (TSNode){0};
}

static const struct { const char *name; pki_reducer r; } reducers[] = {
    {"Acc", PKI_REDUCER_SUM}, {"Prod", PKI_REDUCER_PROD}, {"Min", PKI_REDUCER_MIN},
    {"Max", PKI_REDUCER_MAX}, {"MaxLoc", PKI_REDUCER_MAXLOC}, {"MinLoc", PKI_REDUCER_MINLOC},
    {"MinMax", PKI_REDUCER_MINMAX}, {"MinMaxLoc", PKI_REDUCER_MINMAXLOC}};

bool pkf_acc_reducer(pkf_ctx *c, TSNode ann, pki_reducer *r) {
  ann = pkf_unwrap_type(c, ann);
  if (!pkf_type_is(c, ann, PKF_N_SUBSCRIPT))
    return false;
  TSNode name = pk_attr(c, pkf_field(c, ann, PKF_F_VALUE));
  for (size_t i = 0; i < sizeof reducers / sizeof reducers[0]; i++)
    if (pkf_is(c, name, reducers[i].name)) {
      if (r)
        *r = reducers[i].r;
      return true;
    }
  return false;
}

bool pkf_is_acc(pkf_ctx *c, TSNode ann) { return pkf_acc_reducer(c, ann, NULL); }

/* ------------------------------------------------------------ classtypes */

/* The text of an identifier, or of a plain "Name" string literal. */
static const char *type_name(pkf_ctx *c, TSNode n) {
  if (pkf_type_is(c, n, PKF_N_IDENTIFIER))
    return pkf_text(c, n);
  if (!pkf_type_is(c, n, PKF_N_STRING))
    return NULL;
  const char *t = pkf_text(c, n);
  size_t len = strlen(t);
  if (len < 3 || (t[0] != '"' && t[0] != '\'') || t[len - 1] != t[0])
    return NULL;
  return pki_strndup(c->m->arena, t + 1, len - 2);
}

pki_entity *pkf_classtype_find(pkf_ctx *c, TSNode n) {
  if (!c->ents)
    return NULL;
  const char *nm = type_name(c, n);
  if (!nm)
    return NULL;
  for (int i = 0; i < c->ents->ncls; i++)
    if (!strcmp(c->ents->classes[i]->name, nm))
      return c->ents->classes[i];
  return NULL;
}

/* n names a classtype -> *out = PKI_CLASS type, true. */
static bool class_annotation(pkf_ctx *c, TSNode n, pki_type *out) {
  pki_entity *e = pkf_classtype_find(c, pkf_unwrap_type(c, n));
  if (e)
    *out = pki_class_type(e);
  return e != NULL;
}

/* What pk.real means in this build (F64 unless set). */
static pki_kind real_kind(const pkf_ctx *c) { return c->real == PKI_VOID ? PKI_F64 : c->real; }

bool pkf_is_team_member(pkf_ctx *c, TSNode ann) {
  ann = pkf_unwrap_type(c, ann);
  return pkf_is(c, pk_attr(c, ann), "TeamMember");
}

/* The names an annotation may spell after `pk.`, for "did you mean". */
static const char *const pk_type_names[] = {
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
    "float64", "double", "real", "View1D", "View2D", "View3D", "View4D", "View5D", "View6D",
    "View7D", "View8D", "ScratchView1D", "ScratchView2D", "ScratchView3D", "Acc", "Sum",
    "Prod", "Max", "Min", "TeamMember", "Random_XorShift64_Pool", "Random_XorShift1024_Pool",
    "Random_XorShift64", "Random_XorShift1024"};

/* " (did you mean 'pk.double'?)" for a misspelled pk.NAME or np.NAME type (n, or
 * the value of subscript n), else "". */
static const char *did_you_mean(pkf_ctx *c, TSNode n) {
  if (pkf_type_is(c, n, PKF_N_SUBSCRIPT))
    n = pkf_field(c, n, PKF_F_VALUE);
  if (!pkf_type_is(c, n, PKF_N_ATTRIBUTE))
    return "";
  TSNode obj = pkf_field(c, n, PKF_F_OBJECT);
  const char *word = pkf_text(c, pkf_field(c, n, PKF_F_ATTRIBUTE)), *best = NULL;
  if (pkf_alias_is(c, obj, PKF_AL_PK))
    best = pki_closest(word, pk_type_names, (int)(sizeof pk_type_names / sizeof *pk_type_names));
  else if (pkf_alias_is(c, obj, PKF_AL_NP)) {
    const char *np[sizeof np_scalars / sizeof *np_scalars];
    int k = 0;
    for (const named_kind *t = np_scalars; t->name; t++)
      np[k++] = t->name;
    best = pki_closest(word, np, k);
  }
  return best ? pki_sprintf(c->m->arena, " (did you mean '%s.%s'?)", pkf_text(c, obj), best)
              : "";
}

static bool bad_type(pkf_ctx *c, TSNode n, const char *why) {
  const char *from = pkf_type_is(c, n, PKF_N_IDENTIFIER) ? pkf_imported_from(c, pkf_text(c, n))
                                                         : NULL;
  if (from) {
    pki_error(c->d, pkf_span(n), "unknown-type",
              "type '%s' is imported from %s, which pkc does not read (it translates one "
              "file at a time): define the @pk.classtype in this file", pkf_text(c, n), from);
    return false;
  }
  TSNode head = pkf_type_is(c, n, PKF_N_SUBSCRIPT)      ? pkf_field(c, n, PKF_F_VALUE)
                : pkf_type_is(c, n, PKF_N_GENERIC_TYPE) ? pkf_named_child(c, n, 0)
                                                        : n;
  const pkf_alias *a = pkf_type_is(c, head, PKF_N_IDENTIFIER) ? pkf_alias_find(c, head) : NULL;
  if (a && a->kind == PKF_AL_PKNAME) {
    pki_error(c->d, pkf_span(n), "unknown-type",
              "type '%s': write pk.%s (pkc reads pykokkos' types through the module, "
              "`import pykokkos as pk`, not as names imported from it)", pkf_text(c, n),
              a->orig);
    return false;
  }
  pki_error(c->d, pkf_span(n), "unknown-type", "%s type '%s'%s%s", why, pkf_text(c, n),
            did_you_mean(c, n),
            "; use int, float, bool, pk.int32/int64/float32/float64..., "
            "pk.View1D[T]..pk.View8D[T] or pk.Acc[T]");
  return false;
}

static bool scalar_type(pkf_ctx *c, TSNode n, bool as_elem, pki_type *out) {
  pki_kind k = PKI_VOID;
  if (pkf_type_is(c, n, PKF_N_IDENTIFIER)) {
    if (pkf_is(c, n, "int"))
      k = as_elem ? PKI_I32 : PKI_I64;
    else if (pkf_is(c, n, "float"))
      k = PKI_F64;
    else if (pkf_is(c, n, "bool"))
      k = PKI_BOOL;
    else /* `double`, `int32`...: `from pykokkos import *` (or the name imported) */
      k = find_kind(c, pk_scalars, n);
  } else if (pkf_type_is(c, n, PKF_N_ATTRIBUTE)) {
    TSNode obj = pkf_field(c, n, PKF_F_OBJECT), attr = pkf_field(c, n, PKF_F_ATTRIBUTE);
    if (pkf_alias_is(c, obj, PKF_AL_PK))
      k = pkf_is(c, attr, "real") ? real_kind(c) : find_kind(c, pk_scalars, attr);
    else if (pkf_alias_is(c, obj, PKF_AL_NP))
      k = find_kind(c, np_scalars, attr);
  }
  if (k == PKI_VOID)
    return false;
  *out = pki_scalar(k);
  return true;
}

/* pk.View1D[C]..pk.View3D[C] of a @pk.classtype C (its layout, AoS or SoA,
 * is the argument's: the kernel is built for both). */
static bool class_view_type(pkf_ctx *c, TSNode n, TSNode arg, pki_type elem, int rank,
                            uint32_t nargs, pki_type *out) {
  if (nargs > 2) {
    pki_error(c->d, pkf_span(n), "unsupported-type",
              "a View of classtype '%s' takes no layout in the annotation; pass the View "
              "made with pk.View(shape, %s, layout=pk.AoS or pk.SoA)",
              elem.cls->name, elem.cls->name);
    return false;
  }
  if (rank > 3) {
    pki_error(c->d, pkf_span(n), "unsupported-type",
              "Views of classtype '%s' have rank 1 to 3; use pk.View3D[%s] or less and "
              "flatten the other indices", elem.cls->name, elem.cls->name);
    return false;
  }
  const char *why = pki_class_view_field_error(c->m->arena, elem.cls);
  if (why) {
    pki_error(c->d, pkf_span(arg), "class-view", "%s", why);
    return false;
  }
  if (!elem.cls->nmembers) {
    pki_error(c->d, pkf_span(arg), "class-view",
              "classtype '%s' has no fields, so a View of it holds nothing; give its __init__ "
              "fields (self.x: float = x)", elem.cls->name);
    return false;
  }
  *out = pki_view(PKI_CLASS, rank, PKI_LAYOUT_DEFAULT);
  out->cls = elem.cls;
  return true;
}

/* pk.ViewND[T] / pk.Acc[T] */
static bool generic_type(pkf_ctx *c, TSNode n, bool as_elem, pki_type *out) {
  TSNode name = pk_attr(c, pkf_field(c, n, PKF_F_VALUE));
  if (ts_node_is_null(name))
    return bad_type(c, n, "unknown");
  pkf_nodes args = pkf_children(c, n);
  /* args.v[0] is the value; the rest are subscripts */
  if (args.n < 2)
    return bad_type(c, n, "unknown");
  TSNode arg = args.v[1];

  if (pkf_acc_reducer(c, n, NULL)) {
    if (args.n != 2 || !scalar_type(c, pkf_unwrap_type(c, arg), false, out))
      return bad_type(c, n, "unsupported accumulator");
    return true;
  }
  const char *nm = pkf_text(c, name);
  int rank = 0;
  pki_space space = PKI_SPACE_DEFAULT;
  if (strncmp(nm, "View", 4) == 0 && nm[4] >= '1' && nm[4] <= '8' && strcmp(nm + 5, "D") == 0)
    rank = nm[4] - '0';
  if (strncmp(nm, "ScratchView", 11) == 0 && nm[11] >= '1' && nm[11] <= '3' &&
      strcmp(nm + 12, "D") == 0) {
    rank = nm[11] - '0';
    space = PKI_SPACE_SCRATCH;
  }
  if (!rank)
    return bad_type(c, n, "unknown");
  pki_type elem;
  if (space != PKI_SPACE_SCRATCH && class_annotation(c, pkf_unwrap_type(c, arg), &elem))
    return class_view_type(c, n, arg, elem, rank, args.n, out);
  if (!scalar_type(c, pkf_unwrap_type(c, arg), true, &elem)) {
    TSNode el = pkf_unwrap_type(c, arg);
    pki_error(c->d, pkf_span(arg), "unknown-type",
              "unknown View element type '%s'%s; use int, float, bool or pk.int32/"
              "int64/float32/float64...", pkf_text(c, arg), did_you_mean(c, el));
    return false;
  }
  if (args.n > 2) {
    pki_error(c->d, pkf_span(args.v[2]), "unsupported-type",
              "layout arguments in View annotations are not supported yet; "
              "annotate as pk.View%dD[T] and set the layout with pk.ViewTypeInfo", rank);
    return false;
  }
  *out = pki_view(elem.kind, rank, PKI_LAYOUT_DEFAULT);
  out->space = space;
  (void)as_elem;
  return true;
}

/* pk.TeamMember, pk.Random_XorShift64_Pool / _1024_Pool, and a pool's state
 * pk.Random_XorShift64 / _1024 (what get_state() returns). */
static bool pk_object_type(pkf_ctx *c, TSNode n, pki_type *out) {
  TSNode a = pk_attr(c, n);
  if (ts_node_is_null(a))
    return false;
  *out = pki_void_type;
  if (pkf_is(c, a, "TeamMember"))
    out->kind = PKI_TEAM_MEMBER;
  else if (pkf_is(c, a, "Random_XorShift64_Pool"))
    out->kind = PKI_POOL, out->rank = 64;
  else if (pkf_is(c, a, "Random_XorShift1024_Pool"))
    out->kind = PKI_POOL, out->rank = 1024;
  else if (pkf_is(c, a, "Random_XorShift64")) /* a pool's state (Kokkos' generator type) */
    out->kind = PKI_RAND_STATE, out->rank = 64;
  else if (pkf_is(c, a, "Random_XorShift1024"))
    out->kind = PKI_RAND_STATE, out->rank = 1024;
  return out->kind != PKI_VOID;
}

/* List[T] / typing.List[T] (length 0: set from the initializer). */
static bool list_type(pkf_ctx *c, TSNode n, pki_type *out, bool *is_list) {
  bool generic = pkf_type_is(c, n, PKF_N_GENERIC_TYPE); /* List[T] in an annotation */
  TSNode v = generic ? pkf_named_child(c, n, 0) : pkf_field(c, n, PKF_F_VALUE);
  *is_list = pkf_is(c, v, "List") || (pkf_type_is(c, v, PKF_N_ATTRIBUTE) &&
                                      pkf_is(c, pkf_field(c, v, PKF_F_OBJECT), "typing") &&
                                      pkf_is(c, pkf_field(c, v, PKF_F_ATTRIBUTE), "List"));
  if (!*is_list)
    return false;
  pkf_nodes args = pkf_children(c, generic ? pkf_named_child(c, n, 1) : n);
  uint32_t first = generic ? 0 : 1; /* subscript: args.v[0] is the value */
  pki_type elem;
  TSNode inner = args.n == first + 1 ? pkf_unwrap_type(c, args.v[first]) : (TSNode){0};
  bool nested = false;
  if (!ts_node_is_null(inner) && (pkf_type_is(c, inner, PKF_N_SUBSCRIPT) ||
                                  pkf_type_is(c, inner, PKF_N_GENERIC_TYPE))) {
    bool inner_list = false;
    int nd = c->d->n, ne = c->d->errors;
    if (list_type(c, inner, &elem, &inner_list) && elem.rank == 0) {
      nested = true; /* List[List[T]]: a fixed-size matrix, rows x columns */
      elem = pki_scalar(elem.elem);
    } else {
      c->d->n = nd, c->d->errors = ne;
    }
  }
  if (!nested && (args.n != first + 1 || !scalar_type(c, inner, false, &elem))) {
    pki_error(c->d, pkf_span(n), "unknown-type",
              "typing.List needs a scalar element type (or a List of them), e.g. "
              "List[float] or List[List[float]]");
    return false;
  }
  *out = pki_array_type(elem.kind, 0);
  out->rank = nested ? -1 : 0; /* -1: two-dimensional, columns from the initializer */
  return true;
}

bool pkf_type_quiet(pkf_ctx *c, TSNode ann, bool as_elem, pki_type *out) {
  int n = c->d->n, errs = c->d->errors;
  pki_type t = pki_void_type;
  bool ok = pkf_type(c, ann, as_elem, &t);
  c->d->n = n;
  c->d->errors = errs;
  if (!ok || t.kind == PKI_VOID || t.kind == PKI_STR)
    return false;
  *out = t;
  return true;
}

static bool type_of(pkf_ctx *c, TSNode ann, bool as_elem, pki_type *out) {
  TSNode n = pkf_unwrap_type(c, ann);
  if (scalar_type(c, n, as_elem, out) || pk_object_type(c, n, out))
    return true;
  if (pkf_type_is(c, n, PKF_N_SUBSCRIPT) || pkf_type_is(c, n, PKF_N_GENERIC_TYPE)) {
    bool is_list = false, ok = list_type(c, n, out, &is_list);
    return is_list ? ok : generic_type(c, n, as_elem, out);
  }
  if (pkf_type_is(c, n, PKF_N_NONE)) {
    *out = pki_void_type;
    return true;
  }
  if (class_annotation(c, n, out)) /* entities helper: @pk.classtype names */
    return true;
  return bad_type(c, n, "unknown");
}

/* Typings that succeeded, by annotation node and as_elem: an annotation is
 * typed several times (work index checks, the parameter's type, accumulator
 * checks). A success reports nothing and depends on the node only (the
 * import aliases and pk.real are fixed before any annotation is typed, and
 * classtypes are only added), so it is kept; a failure is typed and
 * reported again each time. Open addressing on node index * 2 + as_elem. */
typedef struct typed {
  uint32_t key; /* 0: empty slot */
  pki_type t;
} typed;

struct pkf_type_memo {
  typed *slot;
  uint32_t n, cap;
};

static typed *memo_slot(struct pkf_type_memo *m, uint32_t key) {
  uint32_t h = (key * 0x9E3779B1u) & (m->cap - 1);
  while (m->slot[h].key && m->slot[h].key != key)
    h = (h + 1) & (m->cap - 1);
  return &m->slot[h];
}

static void memo_put(pkf_ctx *c, uint32_t key, pki_type t) {
  struct pkf_type_memo *m = c->types;
  if (!m)
    m = c->types = pki_alloc(c->m->arena, sizeof *m);
  if (2 * (m->n + 1) > m->cap) { /* grow: rehash into a table twice as large */
    struct pkf_type_memo old = *m;
    m->cap = old.cap ? 2 * old.cap : 256;
    m->slot = pki_alloc(c->m->arena, sizeof *m->slot * m->cap);
    for (uint32_t i = 0; i < old.cap; i++)
      if (old.slot[i].key)
        *memo_slot(m, old.slot[i].key) = old.slot[i];
  }
  typed *s = memo_slot(m, key);
  m->n += !s->key;
  *s = (typed){key, t};
}

bool pkf_type(pkf_ctx *c, TSNode ann, bool as_elem, pki_type *out) {
  uint32_t i = pkf_node_index(c, ann);
  uint32_t key = i < UINT32_MAX / 2 ? (i << 1 | as_elem) + 1 : 0;
  if (key && c->types) {
    typed *s = memo_slot(c->types, key);
    if (s->key) {
      *out = s->t;
      return true;
    }
  }
  if (!type_of(c, ann, as_elem, out))
    return false;
  if (key)
    memo_put(c, key, *out);
  return true;
}
