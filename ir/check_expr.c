/*
 * check_expr.c - expression typing for pki_check: Python semantics with C++
 * types. Every implicit conversion becomes an explicit PKI_E_CAST.
 */
#include <string.h>

#include "access.h"
#include "check_priv.h"

static pki_kind kind_of(const pki_expr *e) { return e ? e->type.kind : PKI_VOID; }
static bool intlike(pki_kind k) { return k == PKI_BOOL || pki_is_int(k); }
static bool nonneg_lit(const pki_expr *e) { return e && e->kind == PKI_E_INT && e->ival >= 0; }
static const char *tstr(pki_ck *c, pki_type t) { return pki_type_str(c->m->arena, t); }

const char *pki_ck_op_sym(pki_op op) {
  static const char *const s[PKI_OP_COUNT] = {
      [PKI_OP_ADD] = "+",    [PKI_OP_SUB] = "-",     [PKI_OP_MUL] = "*",
      [PKI_OP_DIV] = "/",    [PKI_OP_FLOORDIV] = "//", [PKI_OP_MOD] = "%",
      [PKI_OP_POW] = "**",   [PKI_OP_BITAND] = "&",  [PKI_OP_BITOR] = "|",
      [PKI_OP_BITXOR] = "^", [PKI_OP_SHL] = "<<",    [PKI_OP_SHR] = ">>",
      [PKI_OP_LT] = "<",     [PKI_OP_LE] = "<=",     [PKI_OP_GT] = ">",
      [PKI_OP_GE] = ">=",    [PKI_OP_EQ] = "==",     [PKI_OP_NE] = "!=",
      [PKI_OP_AND] = "and",  [PKI_OP_OR] = "or",     [PKI_OP_NEG] = "-",
      [PKI_OP_POS] = "+",    [PKI_OP_NOT] = "not",   [PKI_OP_INVERT] = "~"};
  return (unsigned)op < PKI_OP_COUNT && s[op] ? s[op] : "?";
}

/* e is a field of an element of a View of classtypes, at any depth
 * (p[i].pos, p[i].body.pos): a place a function may change. */
static bool class_elem_field(const pki_expr *e) {
  while (e && e->kind == PKI_E_FIELD && e->nargs > 0)
    e = e->args[0];
  return pki_ck_class_elem(e);
}

bool pki_ck_class_elem(const pki_expr *e) {
  return e && e->kind == PKI_E_INDEX && e->nargs > 0 && e->args[0] &&
         e->args[0]->kind == PKI_E_VAR && e->args[0]->var &&
         pki_is_class_view(e->args[0]->var->type);
}

void pki_ck_mark(pki_var *v, unsigned access) {
  if (v && (v->kind == PKI_VAR_PARAM || v->kind == PKI_VAR_MEMBER || v->kind == PKI_VAR_ACC ||
            (v->kind == PKI_VAR_INDEX && (access & PKI_ACCESS_WRITE)) ||
            (v->kind == PKI_VAR_LOCAL && v->type.kind == PKI_VIEW)))
    v->access |= access; /* View locals (subviews) pass theirs to the base View */
}

pki_expr *pki_ck_conv(pki_ck *c, pki_expr *e, pki_type t) {
  if (!e || e->type.kind == PKI_VOID || t.kind == PKI_VOID)
    return e;
  return pki_cast(c->m, e, t);
}

pki_ck_fit pki_ck_fits(pki_type from, pki_type to) {
  if (from.kind == PKI_VOID || to.kind == PKI_VOID)
    return PKI_CK_SKIP;
  if (from.kind == PKI_VIEW || to.kind == PKI_VIEW)
    return from.kind == to.kind && from.elem == to.elem && from.rank == to.rank
               ? PKI_CK_OK : PKI_CK_MISMATCH;
  if (!pki_is_numeric(from.kind) || !pki_is_numeric(to.kind))
    return pki_type_eq(from, to) && from.kind != PKI_STR ? PKI_CK_OK : PKI_CK_MISMATCH;
  if (pki_is_float(from.kind) && pki_is_int(to.kind))
    return PKI_CK_FLOAT_TO_INT;
  return PKI_CK_OK;
}

pki_expr *pki_ck_store(pki_ck *c, pki_expr *e, pki_type to, pki_span at,
                       const char *verb, const char *place) {
  if (!e)
    return e;
  switch (pki_ck_fits(e->type, to)) {
  case PKI_CK_OK:
    return pki_is_numeric(to.kind) ? pki_ck_conv(c, e, to) : e;
  case PKI_CK_SKIP:
    return e;
  case PKI_CK_FLOAT_TO_INT:
    /* C++ (and so PyKokkos) converts implicitly, truncating toward zero */
    pki_warning(c->d, at, "implicit-conversion",
                "implicit conversion: %s %s %s truncates toward zero as in C++ "
                "(PyKokkos semantics); write int(...) to make it explicit", verb,
                tstr(c, e->type), place);
    return pki_ck_conv(c, e, to);
  case PKI_CK_MISMATCH:
    pki_error(c->d, at, "type-mismatch", "cannot %s %s %s", verb, tstr(c, e->type), place);
    return e;
  }
  return e;
}

const char *pki_ck_place(pki_ck *c, const pki_expr *t) {
  pki_arena *a = c->m->arena;
  if (t && t->kind == PKI_E_FIELD)
    return pki_sprintf(a, "to %s field '%s'", tstr(c, t->type), t->str ? t->str : "?");
  if (t && t->kind == PKI_E_INDEX && t->nargs > 0 && t->args[0]) {
    const pki_expr *v = t->args[0];
    const char *vn = v->kind == PKI_E_VAR && v->var ? v->var->name : "?";
    if (v->type.kind == PKI_ARRAY)
      return pki_sprintf(a, "to %s element of List '%s'", pki_kind_name(v->type.elem), vn);
    return pki_sprintf(a, "to %s element of View%dD '%s'",
                       pki_is_class_view(v->type) && v->type.cls ? v->type.cls->name
                                                                 : pki_kind_name(v->type.elem),
                       v->type.rank, vn);
  }
  if (!t || t->kind != PKI_E_VAR || !t->var)
    return "to this target";
  const pki_var *v = t->var;
  const char *ty = tstr(c, v->type);
  switch (v->kind) {
  case PKI_VAR_LOCAL:
    return pki_sprintf(a, "to %s local '%s' (a local keeps one type for its whole life)", ty,
                       v->name);
  case PKI_VAR_MEMBER: return pki_sprintf(a, "to %s member 'self.%s'", ty, v->name);
  case PKI_VAR_ACC: return pki_sprintf(a, "to %s accumulator '%s'", ty, v->name);
  default: return pki_sprintf(a, "to %s parameter '%s'", ty, v->name);
  }
}

/* Reports a non-numeric operand; false for it and for untyped ones. */
static bool need_num(pki_ck *c, const pki_expr *e, const char *what) {
  pki_kind k = kind_of(e);
  if (k == PKI_VOID)
    return false;
  if (pki_is_numeric(k))
    return true;
  pki_error(c->d, e->span, "type-mismatch", "%s needs a number here, got %s", what,
            tstr(c, e->type));
  return false;
}

/* Arithmetic promotion of two numeric kinds (bool counts as int; F32 stays
 * F32 next to ints; signed/unsigned mixes go to int64). *mix is set for a
 * signed/unsigned 64-bit mix (no common type). */
static pki_kind promote(pki_kind x, bool xlit, pki_kind y, bool ylit, bool *mix) {
  *mix = false;
  if (x == PKI_BOOL && y == PKI_BOOL)
    return PKI_I64;
  if (x == PKI_BOOL)
    x = pki_is_int(y) ? y : PKI_I64;
  if (y == PKI_BOOL)
    y = pki_is_int(x) ? x : PKI_I64;
  if (pki_is_float(x) || pki_is_float(y)) {
    bool f32 = (x == PKI_F32 || pki_is_int(x)) && (y == PKI_F32 || pki_is_int(y));
    return f32 ? PKI_F32 : PKI_F64;
  }
  if (pki_is_signed(x) == pki_is_signed(y))
    return pki_kind_bits(x) >= pki_kind_bits(y) ? x : y;
  if ((x == PKI_U64 && ylit) || (y == PKI_U64 && xlit))
    return PKI_U64; /* n - 1 on a uint64 */
  if (x == PKI_U64 || y == PKI_U64) {
    *mix = true;
    return PKI_VOID;
  }
  return PKI_I64;
}

/* Common arithmetic kind of two typed numeric operands; reports mixes. */
static pki_kind arith(pki_ck *c, const pki_expr *a, const pki_expr *b, pki_span at) {
  bool mix;
  pki_kind k = promote(kind_of(a), nonneg_lit(a), kind_of(b), nonneg_lit(b), &mix);
  if (mix)
    pki_error(c->d, at, "type-mismatch",
              "mixing signed and unsigned 64-bit ints (%s and %s); convert one side: "
              "pk.uint64(x) to compute in uint64 (hashes), int(x) in int64",
              pki_kind_name(kind_of(a)), pki_kind_name(kind_of(b)));
  return k;
}

/* e's value when it is an integer constant (through casts and a unary minus). */
/* A constant shift count the C++ shift of a `k` value cannot take. */
static void ck_shift_count(pki_ck *c, pki_op op, const pki_expr *b, pki_kind k) {
  int64_t n;
  int bits = pki_kind_bits(k);
  if (!pki_const_int(b, &n) || (n >= 0 && n < bits))
    return;
  if (n < 0)
    pki_error(c->d, b->span, "shift-count", "negative shift count %lld (Python raises "
              "ValueError); shift the other way: '%s %lld'", (long long)n,
              op == PKI_OP_SHL ? ">>" : "<<", (long long)-n);
  else
    pki_error(c->d, b->span, "shift-count", "shift count %lld is not less than the width "
              "of %s (%d bits): the result is not defined in C++; use a smaller count or "
              "a wider type", (long long)n, pki_kind_name(k), bits);
}

/* A constant int ** int whose value leaves int64: Python's int is unbounded,
 * the kernel's would wrap (as numpy's int64 does), so it is refused. */
static void ck_pow_overflow(pki_ck *c, const pki_expr *a, const pki_expr *b, pki_span at) {
  int64_t x, n, r = 1;
  if (!pki_const_int(a, &x) || !pki_const_int(b, &n) || n < 0 || (x >= -1 && x <= 1))
    return;
  for (int64_t i = 0; i < n; i++) /* |x| >= 2: overflows within 64 steps */
    if (__builtin_mul_overflow(r, x, &r)) {
      pki_error(c->d, at, "int-overflow",
                "%lld ** %lld does not fit in a 64-bit int (the kernel's int would wrap "
                "around, Python's would not); write %lld.0 ** %lld for a float",
                (long long)x, (long long)n, (long long)x, (long long)n);
      return;
    }
}

pki_type pki_ck_binop(pki_ck *c, pki_op op, const pki_expr *a, const pki_expr *b,
                      pki_span at, pki_type *operand) {
  *operand = pki_void_type;
  const char *sym = pki_ck_op_sym(op);
  bool oka = need_num(c, a, sym), okb = need_num(c, b, sym);
  if (!oka || !okb)
    return pki_void_type;
  pki_kind x = kind_of(a), y = kind_of(b), k;
  int64_t zero = 1;
  if ((op == PKI_OP_DIV || op == PKI_OP_FLOORDIV || op == PKI_OP_MOD) &&
      ((pki_const_int(b, &zero) && zero == 0) || (b->kind == PKI_E_FLOAT && b->fval == 0.0)))
    pki_error(c->d, b->span, "zero-division",
              "division by zero: Python raises ZeroDivisionError for '%s 0' at every point; "
              "divide by something else", sym);
  switch (op) {
  case PKI_OP_POW: {
    int64_t n = 0; /* Python: int ** negative int is a float (2 ** -1 == 0.5) */
    if (intlike(x) && intlike(y) && !(pki_const_int(b, &n) && n < 0)) {
      k = PKI_I64;
      ck_pow_overflow(c, a, b, at);
      break;
    }
  }
    /* fall through */
  case PKI_OP_DIV:
    k = arith(c, a, b, at);
    if (k != PKI_VOID)
      k = k == PKI_F32 ? PKI_F32 : PKI_F64;
    break;
  case PKI_OP_BITAND: case PKI_OP_BITOR: case PKI_OP_BITXOR:
  case PKI_OP_SHL: case PKI_OP_SHR:
    if (pki_is_float(x) || pki_is_float(y)) {
      pki_error(c->d, at, "type-mismatch", "bitwise operator '%s' on float; use int(...)", sym);
      return pki_void_type;
    }
    if (x == PKI_BOOL && y == PKI_BOOL && op != PKI_OP_SHL && op != PKI_OP_SHR)
      k = PKI_BOOL;
    else
      k = arith(c, a, b, at);
    if ((op == PKI_OP_SHL || op == PKI_OP_SHR) && k != PKI_VOID)
      ck_shift_count(c, op, b, k);
    break;
  default:
    k = arith(c, a, b, at);
    break;
  }
  *operand = pki_scalar(k);
  return *operand;
}

/* ------------------------------------------------------------- variables */

static void ck_var(pki_ck *c, pki_expr *e, unsigned access) {
  if (e->var && e->var->kind == PKI_VAR_ACC && pki_ck_acc_whole(c, e->var, e->span)) {
    e->type = pki_void_type; /* acc.val ... only (pki_ck_field) */
    return;
  }
  e->type = e->var ? e->var->type : pki_void_type;
  pki_ck_mark(e->var, access);
}

/* Types one index: an integer, cast to int64. */
static pki_expr *ck_index_arg(pki_ck *c, pki_expr *e) {
  e = pki_ck_expr(c, e);
  pki_kind k = kind_of(e);
  if (k == PKI_VOID)
    return e;
  if (!intlike(k)) {
    pki_error(c->d, e->span, "type-mismatch", "View index must be an integer, got %s%s",
              tstr(c, e->type), pki_is_float(k) ? "; use int(...)" : "");
    return e;
  }
  return pki_ck_conv(c, e, pki_int_type);
}

/* Types a View operand (args[0] of INDEX/EXTENT); false if not a View. */
static bool ck_view_operand(pki_ck *c, pki_expr *e, unsigned access) {
  pki_expr *v = e->nargs > 0 ? e->args[0] : NULL;
  if (!v)
    return false;
  if (v->kind == PKI_E_VAR)
    ck_var(c, v, access);
  else
    e->args[0] = v = pki_ck_expr(c, v);
  if (v->type.kind == PKI_VOID)
    return false;
  if (v->type.kind != PKI_VIEW && !(e->kind == PKI_E_INDEX && v->type.kind == PKI_ARRAY)) {
    const char *name = v->kind == PKI_E_VAR && v->var ? v->var->name : "expression";
    pki_error(c->d, v->span, "view-index", "indexing a non-View: '%s' is %s", name,
              tstr(c, v->type));
    return false;
  }
  return true;
}

static void ck_index(pki_ck *c, pki_expr *e, unsigned access) {
  e->type = pki_void_type;
  bool ok = ck_view_operand(c, e, access);
  for (int i = 1; i < e->nargs; i++)
    if (e->args[i])
      e->args[i] = ck_index_arg(c, e->args[i]);
  if (!ok)
    return;
  pki_type t = e->args[0]->type;
  const pki_expr *v = e->args[0];
  const char *name = v->kind == PKI_E_VAR && v->var ? v->var->name
                     : v->kind == PKI_E_FIELD && v->str ? v->str : "?";
  int n = e->nargs - 1;
  if (t.kind == PKI_ARRAY && v->kind == PKI_E_VAR && v->var && v->var->kind == PKI_VAR_MEMBER &&
      !(c->f && c->f->owner && c->f->owner->kind == PKI_ENT_CLASSTYPE)) {
    /* members cross the C ABI as scalars and Views only (a classtype's List
     * fields are C arrays of its struct) */
    pki_error(c->d, e->span, "list-member",
              "List data member 'self.%s' cannot be indexed in @pk.main or a kernel (data "
              "members reach C++ as scalars and Views); make it a View "
              "(self.%s: pk.View1D[...] = pk.View([n], dtype)) or use it only in Python methods",
              name, name);
    return;
  }
  if (t.kind == PKI_ARRAY) {
    int64_t k;
    if (n != 1)
      pki_error(c->d, e->span, "view-index", "List '%s' takes one index, got %d", name, n);
    else if (t.rank == 0 && pki_const_int(e->args[1], &k) && (k < 0 || k >= t.length))
      pki_error(c->d, e->args[1]->span, "list-index", "index %lld is out of range for "
                "List '%s' of %d elements (indices 0..%d%s)", (long long)k, name, t.length,
                t.length - 1, k < 0 ? "; negative indices are not supported" : "");
    else
      e->type = pki_scalar(t.elem);
    return;
  }
  if (n < t.rank)
    pki_error(c->d, e->span, "view-index",
              "View%dD '%s' needs %d ind%s, got %d; subviews are not supported yet", t.rank,
              name, t.rank, t.rank == 1 ? "ex" : "ices", n);
  else if (n > t.rank)
    pki_error(c->d, e->span, "view-index", "View%dD '%s' needs %d ind%s, got %d", t.rank,
              name, t.rank, t.rank == 1 ? "ex" : "ices", n);
  else
    e->type = pki_is_class_view(t) ? pki_class_type(t.cls) : pki_scalar(t.elem);
  for (int i = 1; i < e->nargs && i <= t.rank; i++) {
    int64_t k;
    if (e->args[i] && pki_const_int(e->args[i], &k) && k < 0)
      pki_error(c->d, e->args[i]->span, "negative-index",
                "negative index %lld: Kokkos Views do not wrap around as Python lists do; "
                "write %s.extent(%d) - %lld for this index", (long long)k, name, i - 1,
                (long long)-k);
  }
}

static void ck_extent(pki_ck *c, pki_expr *e) {
  e->type = pki_int_type;
  if (!ck_view_operand(c, e, 0))
    return;
  int rank = e->args[0]->type.rank;
  if (e->ival < 0 || e->ival >= rank)
    pki_error(c->d, e->span, "view-index", "extent(%lld) of a View%dD: dimensions are 0..%d",
              (long long)e->ival, rank, rank - 1);
}

bool pki_ck_target(pki_ck *c, pki_expr *t, unsigned access) {
  if (!t)
    return false;
  if (t->kind == PKI_E_INDEX) {
    ck_index(c, t, access);
    return t->type.kind != PKI_VOID;
  }
  if (t->kind == PKI_E_FIELD) {
    pki_ck_field(c, t, access);
    return t->type.kind != PKI_VOID;
  }
  if (t->kind != PKI_E_VAR) {
    pki_ck_expr(c, t);
    pki_error(c->d, t->span, "bad-assignment",
              "cannot assign to this expression; assign to a local, a field or a View element");
    return false;
  }
  ck_var(c, t, access & PKI_ACCESS_WRITE ? access : 0);
  pki_var *v = t->var;
  if (!v)
    return false;
  if (v->kind == PKI_VAR_INDEX && v->type.kind == PKI_TEAM_MEMBER) {
    pki_error(c->d, t->span, "read-only", "the team member '%s' is read-only", v->name);
    return false;
  } /* an integer work index may be assigned: it is the operator's own copy */
  if (v->kind == PKI_VAR_FINAL) {
    pki_error(c->d, t->span, "read-only", "the scan's final flag '%s' is read-only", v->name);
    return false;
  }
  if (v->type.kind == PKI_VIEW) {
    pki_error(c->d, t->span, "bad-assignment",
              "cannot rebind View '%s' in a kernel; assign to its elements instead", v->name);
    return false;
  }
  return v->type.kind != PKI_VOID;
}

/* ------------------------------------------------------------- operators */

pki_expr *pki_ck_bool(pki_ck *c, pki_expr *e) {
  e = pki_ck_expr(c, e);
  if (!need_num(c, e, "a condition"))
    return e;
  return pki_ck_conv(c, e, pki_bool_type);
}

static void ck_unary(pki_ck *c, pki_expr *e) {
  e->type = pki_void_type;
  if (e->nargs < 1)
    return;
  if (e->op == PKI_OP_NOT) {
    e->args[0] = pki_ck_bool(c, e->args[0]);
    e->type = pki_bool_type;
    return;
  }
  pki_expr *a = e->args[0] = pki_ck_expr(c, e->args[0]);
  if (!need_num(c, a, pki_ck_op_sym(e->op)))
    return;
  pki_kind k = a->type.kind;
  if (e->op == PKI_OP_INVERT && pki_is_float(k)) {
    pki_error(c->d, e->span, "type-mismatch", "bitwise operator '~' on float; use int(...)");
    return;
  }
  /* bool and (for '-', as in Python) unsigned operands become int64 */
  bool widen = k == PKI_BOOL || (e->op == PKI_OP_NEG && pki_is_int(k) && !pki_is_signed(k));
  e->type = pki_scalar(widen ? PKI_I64 : k);
  e->args[0] = pki_ck_conv(c, a, e->type);
}

/* A 64-bit constant expression the C++ compiler would warn about: one that
 * wraps around (`9223372036854775807 + 1000`; pkc's integers wrap, as numpy's
 * int64 do, and pkc says so) or a left shift of a negative constant
 * (`(-1) << 2`, -4 in Python) becomes its value. */
static void fold_wrapping_constant(pki_ck *c, pki_expr *e) {
  int64_t a, b;
  pki_kind k = e->type.kind;
  if ((k != PKI_I64 && k != PKI_U64) || e->nargs != 2 ||
      !(e->op == PKI_OP_ADD || e->op == PKI_OP_SUB || e->op == PKI_OP_MUL ||
        e->op == PKI_OP_SHL) ||
      !pki_const_int(e->args[0], &a) || !pki_const_int(e->args[1], &b))
    return;
  __int128 x = k == PKI_U64 ? (__int128)(uint64_t)a : a, y = k == PKI_U64 ? (__int128)(uint64_t)b : b;
  if (e->op == PKI_OP_SHL && (y < 0 || y > 63))
    return; /* ck_shift_count reports it */
  __int128 r = e->op == PKI_OP_ADD ? x + y : e->op == PKI_OP_SUB ? x - y
               : e->op == PKI_OP_MUL ? x * y : x * ((__int128)1 << y);
  __int128 lo = k == PKI_U64 ? 0 : INT64_MIN, hi = k == PKI_U64 ? (__int128)UINT64_MAX : INT64_MAX;
  bool wraps = r < lo || r > hi;
  if (!wraps && !(e->op == PKI_OP_SHL && x < 0))
    return;
  if (wraps)
    pki_warning(c->d, e->span, "constant-overflow",
                "this constant expression is %s%llu in Python, which does not fit %s: it wraps "
                "around to %lld (pkc's integers are 64-bit, as numpy's)",
                r < 0 ? "-" : "", (unsigned long long)(r < 0 ? -r : r), pki_kind_name(k),
                (long long)(int64_t)(uint64_t)r);
  e->kind = PKI_E_INT;
  e->ival = (int64_t)(uint64_t)r;
  e->unsigned_lit = k == PKI_U64;
  e->nargs = 0;
  e->cname = NULL;
}

static void ck_binary(pki_ck *c, pki_expr *e) {
  e->type = pki_void_type;
  if (e->nargs < 2)
    return;
  e->args[0] = pki_ck_expr(c, e->args[0]);
  e->args[1] = pki_ck_expr(c, e->args[1]);
  pki_type operand;
  e->type = pki_ck_binop(c, e->op, e->args[0], e->args[1], e->span, &operand);
  e->args[0] = pki_ck_conv(c, e->args[0], operand);
  e->args[1] = pki_ck_conv(c, e->args[1], operand);
  fold_wrapping_constant(c, e);
}

/* Common type of two operands compared or joined (bool with bool stays bool). */
static pki_kind common(pki_ck *c, const pki_expr *a, const pki_expr *b, pki_span at,
                       const char *what) {
  bool oka = need_num(c, a, what), okb = need_num(c, b, what);
  if (!oka || !okb)
    return PKI_VOID;
  if (kind_of(a) == PKI_BOOL && kind_of(b) == PKI_BOOL)
    return PKI_BOOL;
  return arith(c, a, b, at);
}

/* The values an integer kind holds (bool: 0 and 1). */
static bool kind_range(pki_kind k, __int128 *lo, __int128 *hi) {
  static const struct { pki_kind k; int bits; bool sig; } t[] = {
      {PKI_BOOL, 1, false}, {PKI_I8, 8, true},   {PKI_I16, 16, true}, {PKI_I32, 32, true},
      {PKI_I64, 64, true},  {PKI_U8, 8, false},  {PKI_U16, 16, false}, {PKI_U32, 32, false},
      {PKI_U64, 64, false}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (t[i].k == k) {
      __int128 span = (__int128)1 << (t[i].bits - (t[i].sig ? 1 : 0));
      *lo = t[i].sig ? -span : 0;
      *hi = span - 1;
      return true;
    }
  return false;
}

/* The values integer operand e can take: its kind's, or the narrower kind's
 * it was converted from (static_cast<int64_t>(u32) is in [0, 2^32 - 1]). */
static bool operand_range(const pki_expr *e, __int128 *lo, __int128 *hi) {
  if (!e || !kind_range(e->type.kind, lo, hi))
    return false;
  __int128 ilo, ihi;
  if (e->kind == PKI_E_CAST && e->nargs == 1 && operand_range(e->args[0], &ilo, &ihi) &&
      ilo >= *lo && ihi <= *hi)
    *lo = ilo, *hi = ihi;
  return true;
}

/* An integer literal (after the checker's conversions), into *v. */
static bool int_literal(const pki_expr *e, __int128 *v) {
  e = pki_uncast(e);
  if (!e || (e->kind != PKI_E_INT && e->kind != PKI_E_BOOL))
    return false; /* False and True are 0 and 1 */
  *v = e->type.kind == PKI_U64 ? (__int128)(uint64_t)e->ival : (__int128)e->ival;
  return true;
}

/* Whether e only reads (no call or pk.* operation with effects). */
static bool pure(const pki_expr *e) {
  if (!e)
    return true;
  if (e->kind == PKI_E_CALL || e->kind == PKI_E_INTRINSIC)
    return false;
  for (int i = 0; i < e->nargs; i++)
    if (!pure(e->args[i]))
      return false;
  return true;
}

/* `u >= 0` of an unsigned u, `s < 1000` of an int8 s: a comparison of an
 * integer with a constant its type makes always true or always false is
 * that bool (Python's value; g++ and nvcc warn on the C++ comparison). */
static void fold_trivial_compare(pki_expr *e) {
  __int128 lo, hi, v;
  bool flip = false;
  const pki_expr *x = e->args[0];
  if (int_literal(e->args[1], &v))
    ;
  else if (int_literal(e->args[0], &v))
    x = e->args[1], flip = true;
  else
    return;
  if (!operand_range(x, &lo, &hi) || !pure(x) || (lo == hi))
    return;
  pki_op op = e->op;
  if (flip) /* c < x is x > c */
    op = op == PKI_OP_LT ? PKI_OP_GT : op == PKI_OP_GT ? PKI_OP_LT
       : op == PKI_OP_LE ? PKI_OP_GE : op == PKI_OP_GE ? PKI_OP_LE : op;
  int r = -1; /* 1 always, 0 never, -1 depends */
  switch (op) {
  case PKI_OP_LT: r = hi < v ? 1 : lo >= v ? 0 : -1; break;
  case PKI_OP_LE: r = hi <= v ? 1 : lo > v ? 0 : -1; break;
  case PKI_OP_GT: r = lo > v ? 1 : hi <= v ? 0 : -1; break;
  case PKI_OP_GE: r = lo >= v ? 1 : hi < v ? 0 : -1; break;
  case PKI_OP_EQ: r = v < lo || v > hi ? 0 : -1; break;
  case PKI_OP_NE: r = v < lo || v > hi ? 1 : -1; break;
  default: break;
  }
  if (r < 0)
    return;
  e->kind = PKI_E_BOOL;
  e->ival = r;
  e->nargs = 0;
}

/* `n < n` of an integer n is false and `n >= n` true (Python's value; g++
 * warns on a self-comparison). Floats are left alone: x == x is false for NaN. */
static void fold_self_compare(pki_expr *e) {
  if (!pure(e->args[0]) || !pki_same_expr(e->args[0], e->args[1]))
    return;
  bool r = e->op == PKI_OP_LE || e->op == PKI_OP_GE || e->op == PKI_OP_EQ;
  e->kind = PKI_E_BOOL;
  e->ival = r;
  e->nargs = 0;
}

static void ck_compare(pki_ck *c, pki_expr *e) {
  e->type = pki_bool_type;
  if (e->nargs < 2)
    return;
  e->args[0] = pki_ck_expr(c, e->args[0]);
  e->args[1] = pki_ck_expr(c, e->args[1]);
  pki_kind k = common(c, e->args[0], e->args[1], e->span, pki_ck_op_sym(e->op));
  if (k == PKI_VOID)
    return;
  e->args[0] = pki_ck_conv(c, e->args[0], pki_scalar(k));
  e->args[1] = pki_ck_conv(c, e->args[1], pki_scalar(k));
  if (pki_is_int(k))
    fold_trivial_compare(e);
  if (pki_is_int(k) && e->kind == PKI_E_COMPARE)
    fold_self_compare(e);
}

static void ck_logical(pki_ck *c, pki_expr *e) {
  e->type = pki_bool_type;
  for (int i = 0; i < e->nargs; i++)
    e->args[i] = pki_ck_bool(c, e->args[i]);
  if (e->nargs != 2 || !e->args[0] || !e->args[1])
    return;
  /* a side the checker decided (fold_trivial_compare): `u >= 0 and u < 5` is
   * `u < 5`; `false and x` and `true or x` are that bool (x is not evaluated) */
  bool and_ = e->op == PKI_OP_AND;
  for (int k = 0; k < 2; k++) {
    const pki_expr *d = e->args[k];
    if (d->kind != PKI_E_BOOL || d->type.kind != PKI_BOOL)
      continue;
    pki_expr *other = e->args[1 - k];
    if ((bool)d->ival == and_) { /* true and x, x or false: x */
      *e = *other;
      return;
    }
    if (k == 0 || pure(other)) { /* false and x, x and false (x only reads): false */
      e->kind = PKI_E_BOOL;
      e->ival = !and_;
      e->nargs = 0;
      return;
    }
  }
}

static void ck_cond(pki_ck *c, pki_expr *e) {
  e->type = pki_void_type;
  if (e->nargs < 3)
    return;
  e->args[0] = pki_ck_bool(c, e->args[0]);
  pki_expr *a = e->args[1] = pki_ck_expr(c, e->args[1]);
  pki_expr *b = e->args[2] = pki_ck_expr(c, e->args[2]);
  if (a && b && a->type.kind == PKI_VIEW && pki_type_eq(a->type, b->type)) {
    e->type = a->type;
    return;
  }
  pki_kind k = common(c, a, b, e->span, "a conditional expression");
  if (k == PKI_VOID)
    return;
  e->type = pki_scalar(k);
  e->args[1] = pki_ck_conv(c, a, e->type);
  e->args[2] = pki_ck_conv(c, b, e->type);
}

/* int()/float()/bool() written by the user: keep, check the operand. */
static void ck_user_cast(pki_ck *c, pki_expr *e) {
  if (e->nargs < 1)
    return;
  pki_expr *a = e->args[0] = pki_ck_expr(c, e->args[0]);
  if (e->type.kind == PKI_VOID)
    e->type = a ? a->type : pki_void_type;
  need_num(c, a, pki_sprintf(c->m->arena, "conversion to %s", tstr(c, e->type)));
}

/* ------------------------------------------------------ calls and builtins */

/* Converts argument i of a call to g's parameter p. */

/* Whether device function g takes a View, pool or team member: one without
 * (numbers and classtypes only) runs on the host too (KOKKOS_FUNCTION), so
 * @pk.main may call it, as PyKokkos translates the functions main reaches. */
static bool touches_memory(const pki_func *g) {
  for (int i = 0; i < g->nparams; i++) {
    pki_kind k = g->params[i]->type.kind;
    if (k == PKI_VIEW || k == PKI_POOL || k == PKI_RAND_STATE || k == PKI_TEAM_MEMBER)
      return true;
  }
  return false;
}

static pki_expr *ck_arg(pki_ck *c, pki_expr *a, pki_var *p, pki_func *g) {
  if (!a || !p)
    return a;
  const char *place = pki_sprintf(c->m->arena, "to %s parameter '%s' of '%s'",
                                  tstr(c, p->type), p->name, g->name);
  if (p->type.kind == PKI_CLASS && a->kind != PKI_E_VAR && !pki_ck_class_elem(a) &&
      !class_elem_field(a) && pki_param_written(g, p)) {
    pki_error(c->d, a->span, "classtype-by-reference",
              "'%s' changes its parameter '%s', which is passed by reference as Python "
              "passes objects; pass a variable (store this value in a local first)",
              g->name, p->name);
    return a;
  }
  if (p->type.kind == PKI_CLASS && a->kind == PKI_E_VAR && a->var &&
      a->var->kind == PKI_VAR_MEMBER && pki_param_written(g, p)) {
    pki_error(c->d, a->span, "classtype-by-reference",
              "'%s' changes its parameter '%s' (passed by reference), but '%s' is a "
              "read-only data member in a kernel; copy it into a local first",
              g->name, p->name, a->var->name);
    return a;
  }
  return pki_ck_store(c, a, p->type, a->span, "pass", place);
}

void pki_ck_call_expr(pki_ck *c, pki_expr *e, bool as_stmt) {
  pki_func *g = e->func;
  e->type = pki_void_type;
  for (int i = 0; i < e->nargs; i++) {
    pki_expr *a = e->args[i];
    pki_var *p = g ? pki_ck_param_for(g, i) : NULL;
    if (!a)
      continue;
    if (a->kind == PKI_E_VAR && a->var && a->var->type.kind == PKI_VIEW) {
      ck_var(c, a, 0); /* access comes from what g does with it */
      if (p) {
        pki_ck_pass *ps = pki_alloc(c->m->arena, sizeof *ps);
        ps->arg = a->var;
        ps->param = p;
        pki_vec_push(c->m->arena, &c->passes, ps);
      }
    } else {
      a = pki_ck_expr(c, a);
    }
    e->args[i] = ck_arg(c, a, p, g);
    if (g && pki_ck_class_elem(a) && (p ? pki_param_written(g, p)
                                        : g->is_method && i == 0 && pki_func_writes_self(g)))
      pki_ck_mark(a->args[0]->var, PKI_ACCESS_READ | PKI_ACCESS_WRITE); /* p[i] changed */
  }
  if (!g)
    return;
  if (g->is_method && !g->is_ctor && e->nargs > 0 && e->args[0] &&
      e->args[0]->type.kind != PKI_VOID &&
      (e->args[0]->type.kind != PKI_CLASS || e->args[0]->type.cls != g->owner)) {
    pki_error(c->d, e->args[0]->span, "bad-call",
              "method '%s' of classtype '%s' called on %s", g->name,
              g->owner ? g->owner->name : "?", tstr(c, e->args[0]->type));
    return;
  }
  if (pki_ck_in_main(c) && !g->is_workunit && touches_memory(g)) {
    pki_error(c->d, e->span, "bad-call",
              "'%s' takes a View (or a pool, a team member), whose memory may be on the "
              "device; it cannot be called from @pk.main (host code); call it from a workunit",
              g->name);
    return;
  }
  if (g->is_workunit) {
    pki_error(c->d, e->span, "bad-call",
              "workunit '%s' cannot be called from a kernel; call a @pk.function instead",
              g->name);
    return;
  }
  pki_ck_call *cl = pki_alloc(c->m->arena, sizeof *cl);
  cl->caller = c->f;
  cl->callee = g;
  cl->span = e->span;
  pki_vec_push(c->m->arena, &c->calls, cl);
  e->type = g->ret;
  if (!as_stmt && g->ret.kind == PKI_VOID)
    pki_error(c->d, e->span, "bad-call",
              "'%s' returns no value, so it cannot be used in an expression; "
              "annotate its return type (-> float) and return a value", g->name);
}

static void ck_builtin(pki_ck *c, pki_expr *e) {
  const char *name = (unsigned)e->builtin < PKI_BUILTIN_COUNT
                         ? pki_builtins[e->builtin].py_name : "builtin";
  bool ok = true, all_f32 = e->nargs > 0;
  for (int i = 0; i < e->nargs; i++) {
    pki_expr *a = e->args[i] = pki_ck_expr(c, e->args[i]);
    ok = need_num(c, a, name) && ok;
    all_f32 = all_f32 && kind_of(a) == PKI_F32;
  }
  pki_kind k = all_f32 ? PKI_F32 : PKI_F64; /* math functions */
  switch (e->builtin) {
  case PKI_BUILTIN_ABS:
    k = e->nargs > 0 ? kind_of(e->args[0]) : PKI_I64;
    if (k == PKI_BOOL || k == PKI_VOID)
      k = PKI_I64;
    break;
  case PKI_BUILTIN_MIN: case PKI_BUILTIN_MAX:
    k = PKI_VOID;
    if (!ok || e->nargs == 0)
      break;
    k = kind_of(e->args[0]) == PKI_BOOL ? PKI_I64 : kind_of(e->args[0]);
    for (int i = 1; i < e->nargs && k != PKI_VOID; i++) {
      bool mix;
      k = promote(k, false, kind_of(e->args[i]), nonneg_lit(e->args[i]), &mix);
      if (mix)
        pki_error(c->d, e->span, "type-mismatch",
                  "%s() mixes signed and unsigned 64-bit ints; cast with int()", name);
    }
    break;
  case PKI_BUILTIN_ROUND: /* round(x): an int (halves to even); round(x, n): x's float type */
    if (!ok)
      break;
    if (pki_is_int(kind_of(e->args[0])) || kind_of(e->args[0]) == PKI_BOOL) {
      if (e->nargs == 2)
        pki_error(c->d, e->span, "type-mismatch",
                  "round(x, n) of an integer x is not supported in kernels; round a float "
                  "(round(float(x), n)) or use integer arithmetic");
      e->type = pki_int_type;
      e->args[0] = pki_ck_conv(c, e->args[0], pki_int_type);
      return;
    }
    if (e->nargs == 2) {
      e->type = pki_scalar(kind_of(e->args[0]));
      e->args[1] = pki_ck_conv(c, e->args[1], pki_int_type);
      return;
    }
    e->type = pki_int_type;
    return;
  case PKI_BUILTIN_FLOOR: case PKI_BUILTIN_CEIL: case PKI_BUILTIN_TRUNC:
    /* Python's math.floor/ceil/trunc give an int (of a float outside int64's
     * range Python raises; the kernel's value is undefined there) */
    e->type = pki_int_type;
    if (ok && e->nargs > 0)
      e->args[0] = pki_ck_conv(c, e->args[0], pki_scalar(k));
    return;
  case PKI_BUILTIN_ISNAN: case PKI_BUILTIN_ISINF: case PKI_BUILTIN_ISFINITE:
  case PKI_BUILTIN_SIGNBIT:
    e->type = pki_bool_type;
    if (ok && e->nargs > 0)
      e->args[0] = pki_ck_conv(c, e->args[0], pki_scalar(k));
    return;
  default:
    break;
  }
  e->type = pki_scalar(k);
  if (ok)
    for (int i = 0; i < e->nargs; i++)
      e->args[i] = pki_ck_conv(c, e->args[i], e->type);
}

/* ------------------------------------------------------------ dispatcher */

pki_expr *pki_ck_expr(pki_ck *c, pki_expr *e) {
  if (!e)
    return NULL;
  switch (e->kind) {
  case PKI_E_INT: e->type = e->unsigned_lit ? pki_scalar(PKI_U64) : pki_int_type; break;
  case PKI_E_FLOAT: e->type = pki_float_type; break;
  case PKI_E_BOOL: e->type = pki_bool_type; break;
  case PKI_E_STR: e->type = pki_scalar(PKI_STR); break;
  case PKI_E_VAR: ck_var(c, e, PKI_ACCESS_READ); break;
  case PKI_E_UNARY: ck_unary(c, e); break;
  case PKI_E_BINARY: ck_binary(c, e); break;
  case PKI_E_COMPARE: ck_compare(c, e); break;
  case PKI_E_LOGICAL: ck_logical(c, e); break;
  case PKI_E_COND: ck_cond(c, e); break;
  case PKI_E_CAST: ck_user_cast(c, e); break;
  case PKI_E_INDEX: ck_index(c, e, PKI_ACCESS_READ); break;
  case PKI_E_EXTENT: ck_extent(c, e); break;
  case PKI_E_CALL: pki_ck_call_expr(c, e, false); break;
  case PKI_E_BUILTIN: ck_builtin(c, e); break;
  case PKI_E_INTRINSIC: pki_ck_intrinsic(c, e, false); break;
  case PKI_E_FIELD: pki_ck_field(c, e, PKI_ACCESS_READ); break;
  case PKI_E_CONSTRUCT: pki_ck_construct(c, e); break;
  case PKI_E_SELF: break; /* typed where it was lowered */
  case PKI_E_LIST: pki_ck_list(c, e, pki_void_type); break;
  case PKI_E_SLICE:
    e->type = pki_void_type;
    pki_error(c->d, e->span, "bad-slice",
              "a slice can only be used as a subview index (A[i, :] or pk.subview)");
    break;
  default: e->type = pki_void_type; break;
  }
  return e;
}
