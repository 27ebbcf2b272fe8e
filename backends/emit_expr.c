/*
 * emit_expr.c - typed IR expressions to C++ (Kokkos device code).
 *
 * Parenthesizes by C++ precedence, plus parentheses where g++ -Wparentheses
 * would ask for them (mixed bitwise/shift/logical operators, chained
 * comparisons). Python semantics come from pkc_kokkos.hpp helpers.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdint.h>

#include "pkb_priv.h"

enum { P_COND = 3, P_OR = 4, P_AND = 5, P_BITOR = 6, P_BITXOR = 7, P_BITAND = 8,
       P_EQ = 9, P_REL = 10, P_SHIFT = 11, P_ADD = 12, P_MUL = 13, P_UNARY = 15,
       P_PRIMARY = 16 };

/* Appends a floating literal that reads back exactly (for kind F32/F64). */
static void put_float(pkb_buf *b, double v, pki_kind k) {
  const char *suffix = k == PKI_F32 ? "f" : "";
  if (k == PKI_F32 && isfinite(v) && fabs(v) >= (double)FLT_MAX + ldexp(1.0, 103))
    v = v < 0 ? -INFINITY : INFINITY; /* 1e300 as float32: inf, as numpy gives */
  else if (k == PKI_F32 && v != 0 && (float)v == 0.0f)
    v = signbit(v) ? -0.0 : 0.0; /* 1e-300 as float32: 0 */
  if (isnan(v)) {
    pkb_put(b, k == PKI_F32 ? "static_cast<float>(pkc::nan)" : "pkc::nan");
    return;
  }
  if (isinf(v)) {
    pkb_put(b, v < 0 ? "-" : "");
    pkb_put(b, k == PKI_F32 ? "static_cast<float>(pkc::inf)" : "pkc::inf");
    return;
  }
  char s[64];
  for (int prec = 1; prec <= 17; prec++) { /* shortest text that reads back */
    snprintf(s, sizeof s, "%.*g", prec, v);
    if (k == PKI_F32 ? strtof(s, NULL) == (float)v : strtod(s, NULL) == v)
      break;
  }
  if (!strpbrk(s, ".eEn")) /* make it look like a floating literal */
    strcat(s, ".0");
  else if (strpbrk(s, "eE") && !strchr(s, '.')) {
    char *e = strpbrk(s, "eE");
    char tail[32];
    snprintf(tail, sizeof tail, "%s", e);
    snprintf(e, sizeof s - (size_t)(e - s), ".0%s", tail);
  }
  pkb_putf(b, "%s%s", s, suffix);
}

static void put_int(pkb_buf *b, int64_t v, pki_kind k, bool wide) {
  bool fits = v >= -2147483647 && v <= 2147483647;
  if (k == PKI_U64 || k == PKI_U32)
    pkb_putf(b, wide || !fits ? "UINT64_C(%llu)" : "%lluu", (unsigned long long)v);
  else if (v == INT64_MIN) /* no literal: 9223372036854775808 is too large for int64 */
    pkb_put(b, "INT64_MIN");
  else if (k == PKI_I64 && (wide || !fits))
    pkb_putf(b, "INT64_C(%lld)", (long long)v);
  else
    pkb_putf(b, "%lld", (long long)v);
}

static int op_prec(pki_op op) {
  switch (op) {
  case PKI_OP_ADD: case PKI_OP_SUB: return P_ADD;
  case PKI_OP_MUL: case PKI_OP_DIV: case PKI_OP_MOD: case PKI_OP_FLOORDIV: return P_MUL;
  case PKI_OP_SHL: case PKI_OP_SHR: return P_SHIFT;
  case PKI_OP_BITAND: return P_BITAND;
  case PKI_OP_BITXOR: return P_BITXOR;
  case PKI_OP_BITOR: return P_BITOR;
  case PKI_OP_LT: case PKI_OP_LE: case PKI_OP_GT: case PKI_OP_GE: return P_REL;
  case PKI_OP_EQ: case PKI_OP_NE: return P_EQ;
  case PKI_OP_AND: return P_AND;
  case PKI_OP_OR: return P_OR;
  default: return P_PRIMARY;
  }
}

static const char *op_text(pki_op op) {
  static const char *const t[PKI_OP_COUNT] = {
      [PKI_OP_ADD] = "+", [PKI_OP_SUB] = "-", [PKI_OP_MUL] = "*", [PKI_OP_DIV] = "/",
      [PKI_OP_FLOORDIV] = "/", [PKI_OP_MOD] = "%", /* plain_div only */
      [PKI_OP_BITAND] = "&", [PKI_OP_BITOR] = "|", [PKI_OP_BITXOR] = "^",
      [PKI_OP_SHL] = "<<", [PKI_OP_SHR] = ">>", [PKI_OP_LT] = "<", [PKI_OP_LE] = "<=",
      [PKI_OP_GT] = ">", [PKI_OP_GE] = ">=", [PKI_OP_EQ] = "==", [PKI_OP_NE] = "!=",
      [PKI_OP_AND] = "&&", [PKI_OP_OR] = "||", [PKI_OP_NEG] = "-", [PKI_OP_POS] = "+",
      [PKI_OP_NOT] = "!", [PKI_OP_INVERT] = "~"};
  return (unsigned)op < PKI_OP_COUNT && t[op] ? t[op] : "?";
}

static bool is_literal(const pki_expr *e) {
  return e->kind == PKI_E_INT || e->kind == PKI_E_FLOAT || e->kind == PKI_E_BOOL;
}

/* Precedence of the C++ text pkb_emit_expr writes for e. */
static int expr_prec(const pki_expr *e) {
  switch (e->kind) {
  case PKI_E_INT: return e->ival < 0 ? P_UNARY : P_PRIMARY;
  case PKI_E_FLOAT: return (e->fval < 0 || signbit(e->fval)) ? P_UNARY : P_PRIMARY;
  case PKI_E_UNARY: return P_UNARY;
  case PKI_E_BINARY:
    if ((e->op == PKI_OP_FLOORDIV || e->op == PKI_OP_MOD) && !e->plain_div)
      return P_PRIMARY; /* pkc::floordiv(...), pkc::pymod(...) */
    if (e->op == PKI_OP_POW)
      return P_PRIMARY; /* pkc::pow(...), pkc::ipow(...) */
    return op_prec(e->op);
  case PKI_E_COMPARE: case PKI_E_LOGICAL: return op_prec(e->op);
  case PKI_E_COND: return P_COND;
  default: return P_PRIMARY;
  }
}

static void emit_sub(pkb_ctx *c, const pki_expr *e, bool parens) {
  if (parens)
    pkb_put(c->b, "(");
  pkb_emit_expr(c, e);
  if (parens)
    pkb_put(c->b, ")");
}

/* Would g++ -Wparentheses (or a reader) want parentheses around child under op? */
static bool wparens(pki_op op, const pki_expr *child) {
  int p = op_prec(op), cp = expr_prec(child);
  bool child_bin = cp < P_UNARY && child->op != op;
  if (p == P_AND || p == P_OR) /* only '&&' inside '||' */
    return child->kind == PKI_E_LOGICAL && child->op != op;
  if (p == P_SHIFT || p == P_BITAND || p == P_BITXOR || p == P_BITOR)
    return child_bin; /* mixed bitwise/shift/arithmetic: explicit */
  if (p == P_EQ || p == P_REL)
    return child->kind == PKI_E_COMPARE; /* chained comparisons */
  return false;
}

/* The module constant e is written as, if it is one written by its name. */
static const pki_expr *named_constant(const pkb_ctx *c, const pki_expr *e);

/* A shift whose count is known only at run time: through pkc::shift_left /
 * shift_right (numpy's results where C++'s are undefined; the checker
 * refuses constant counts out of range). */
static bool checked_shift(const pki_expr *e) {
  int64_t k;
  return (e->op == PKI_OP_SHL || e->op == PKI_OP_SHR) && !pki_const_int(e->args[1], &k);
}

static void emit_binary_op(pkb_ctx *c, const pki_expr *e) {
  const pki_expr *l = e->args[0], *r = e->args[1];
  if (checked_shift(e)) {
    pkb_put(c->b, e->op == PKI_OP_SHL ? "pkc::shift_left(" : "pkc::shift_right(");
    if (l->kind == PKI_E_INT && (l->type.kind == PKI_I64 || l->type.kind == PKI_U64) &&
        !named_constant(c, l))
      put_int(c->b, l->ival, l->type.kind, true);
    else
      pkb_emit_expr(c, l);
    pkb_put(c->b, ", ");
    pkb_emit_expr(c, r);
    pkb_put(c->b, ")");
    return;
  }
  int p = op_prec(e->op);
  bool lp = expr_prec(l) < p || wparens(e->op, l);
  bool rp = expr_prec(r) <= p || wparens(e->op, r);
  /* keep integer arithmetic in 64 bits when both operands are literals */
  bool wide = (l->kind == PKI_E_INT && (is_literal(r) || e->op == PKI_OP_SHL ||
                                         e->op == PKI_OP_SHR));
  if (wide && l->kind == PKI_E_INT && (l->type.kind == PKI_I64 || l->type.kind == PKI_U64) &&
      !named_constant(c, l)) { /* a named constant is int64_t already */
    put_int(c->b, l->ival, l->type.kind, true);
  } else
    emit_sub(c, l, lp);
  bool sum = e->op == PKI_OP_ADD || e->op == PKI_OP_SUB || e->op == PKI_OP_AND || e->op == PKI_OP_OR;
  if (sum && c->wrap && !c->nest && pkb_line_past(c->b, 88)) { /* long sums continue before an operator */
    pkb_wrap(c->b);
    pkb_putf(c->b, "%s ", op_text(e->op));
  } else
    pkb_putf(c->b, " %s ", op_text(e->op));
  emit_sub(c, r, rp);
}

/* e is a chained comparison: `and`s of COMPAREs, each sharing its left
 * operand (the node itself) with the right one of the one before (the
 * frontend lowers `a < m < b` so). Its compares in order into out, or 0. */
static int chain_compares(const pki_expr *e, const pki_expr **out, int max) {
  if (e->kind == PKI_E_COMPARE) {
    out[0] = e;
    return 1;
  }
  if (e->kind != PKI_E_LOGICAL || e->op != PKI_OP_AND || e->args[1]->kind != PKI_E_COMPARE)
    return 0;
  int n = chain_compares(e->args[0], out, max);
  if (!n || n >= max || pki_uncast(out[n - 1]->args[1]) != pki_uncast(e->args[1]->args[0]))
    return 0;
  out[n] = e->args[1];
  return n + 1;
}

/* compares[i] && ... && compares[n - 1], each operand with effects that two
 * of them share evaluated once, as Python does: in a local of a lambda
 * called in place, so that it runs only where the comparisons before it hold. */
static void emit_chain(pkb_ctx *c, const pki_expr **cmps, int i, int n) {
  const pki_expr *m = i + 1 < n ? pki_uncast(cmps[i]->args[1]) : NULL;
  bool bind = m && pki_expr_has_effects(m) && c->nchain < (int)(sizeof c->chain / sizeof *c->chain);
  if (bind) {
    pkb_putf(c->b, "[&] { const auto pkc_chain%d = ", c->nchain);
    pkb_emit_expr(c, m);
    pkb_put(c->b, "; return ");
    c->chain[c->nchain++] = m;
  }
  emit_sub(c, cmps[i], true);
  if (i + 1 < n) {
    pkb_put(c->b, " && ");
    emit_chain(c, cmps, i + 1, n);
  }
  if (bind) {
    pkb_put(c->b, "; }()");
    c->nchain--;
  }
}

static bool chain_has_effects(const pki_expr **cmps, int n) {
  for (int i = 0; i + 1 < n; i++)
    if (pki_expr_has_effects(pki_uncast(cmps[i]->args[1])))
      return true;
  return false;
}

static void emit_call_args(pkb_ctx *c, pki_expr *const *args, int n) {
  c->nest++;
  for (int i = 0; i < n; i++) {
    if (i)
      pkb_put(c->b, ", ");
    pkb_emit_expr(c, args[i]);
  }
  c->nest--;
}

bool pkb_is_two(const pki_expr *e) {
  e = pki_uncast(e);
  return e && ((e->kind == PKI_E_INT && e->ival == 2) || (e->kind == PKI_E_FLOAT && e->fval == 2.0));
}

static void emit_binary(pkb_ctx *c, const pki_expr *e) {
  const char *fn = NULL;
  if (e->plain_div) /* dividend >= 0, divisor a positive constant */
    fn = NULL;
  else if (e->op == PKI_OP_FLOORDIV)
    fn = "pkc::floordiv";
  else if (e->op == PKI_OP_MOD)
    fn = "pkc::pymod";
  else if (e->op == PKI_OP_POW)
    fn = pki_is_float(e->type.kind) ? "pkc::pow" : "pkc::ipow";
  if (e->op == PKI_OP_POW && pki_is_float(e->type.kind) && pkb_is_two(e->args[1])) {
    pkb_put(c->b, "pkc::square("); /* x ** 2: x * x, exact as CPython's (GPU pow is not) */
    pkb_emit_expr(c, e->args[0]);
    pkb_put(c->b, ")");
    return;
  }
  if (!fn) {
    emit_binary_op(c, e);
    return;
  }
  pkb_putf(c->b, "%s(", fn);
  c->nest++;
  const pki_expr *l = e->args[0];
  if (l->kind == PKI_E_INT && is_literal(e->args[1]) &&
      (l->type.kind == PKI_I64 || l->type.kind == PKI_U64) && !named_constant(c, l))
    put_int(c->b, l->ival, l->type.kind, true); /* 64-bit arithmetic, as in Python */
  else
    pkb_emit_expr(c, l);
  pkb_put(c->b, ", ");
  pkb_emit_expr(c, e->args[1]);
  pkb_put(c->b, ")");
  c->nest--;
}

static const char *builtin_cxx(pki_builtin b) {
  switch (b) {
  case PKI_BUILTIN_TGAMMA: case PKI_BUILTIN_CTGAMMA: return "tgamma";
  default: return pki_builtins[b].py_name;
  }
}

/* math.floor/ceil/trunc of a float: an int (Python), emitted through the
 * float the C++ function gives. */
static bool rounded_to_int(const pki_expr *e) {
  return e->kind == PKI_E_BUILTIN && pki_is_int(e->type.kind) && e->nargs == 1 &&
         pki_is_float(e->args[0]->type.kind) &&
         (e->builtin == PKI_BUILTIN_FLOOR || e->builtin == PKI_BUILTIN_CEIL ||
          e->builtin == PKI_BUILTIN_TRUNC);
}

static void emit_builtin(pkb_ctx *c, const pki_expr *e) {
  bool to_int = rounded_to_int(e);
  if (to_int)
    pkb_putf(c->b, "static_cast<%s>(", pkb_scalar_ctype(e->type.kind));
  const char *name = builtin_cxx(e->builtin);
  if ((e->builtin == PKI_BUILTIN_MIN || e->builtin == PKI_BUILTIN_MAX) && e->nargs > 2) {
    for (int i = 0; i < e->nargs - 1; i++) { /* min(a, b, c) -> min(a, min(b, c)) */
      pkb_putf(c->b, "pkc::%s(", name);
      pkb_emit_expr(c, e->args[i]);
      pkb_put(c->b, ", ");
    }
    pkb_emit_expr(c, e->args[e->nargs - 1]);
    for (int i = 0; i < e->nargs - 1; i++)
      pkb_put(c->b, ")");
  } else {
    pkb_putf(c->b, "pkc::%s(", name);
    emit_call_args(c, e->args, e->nargs);
    pkb_put(c->b, ")");
  }
  if (to_int)
    pkb_put(c->b, ")");
}

static void emit_float(pkb_ctx *c, const pki_expr *e) {
  if (e->str && (!strcmp(e->str, "pi") || !strcmp(e->str, "e") || !strcmp(e->str, "tau") ||
                 !strcmp(e->str, "inf") || !strcmp(e->str, "nan"))) {
    if (e->type.kind == PKI_F32)
      pkb_putf(c->b, "static_cast<float>(pkc::%s)", e->str);
    else
      pkb_putf(c->b, "pkc::%s", e->str);
    return;
  }
  put_float(c->b, e->fval, e->type.kind == PKI_F32 ? PKI_F32 : PKI_F64);
}

static void emit_cast(pkb_ctx *c, const pki_expr *e) {
  const pki_expr *a = e->args[0];
  pki_kind k = e->type.kind;
  if (pki_is_float(k) && rounded_to_int(a)) {
    /* float(math.floor(x)): the float floor itself, so that a NaN, an
     * infinity or a value past int64 stays what it is (Python would raise) */
    bool same = a->args[0]->type.kind == k;
    if (!same)
      pkb_putf(c->b, "static_cast<%s>(", pkb_scalar_ctype(k));
    pkb_putf(c->b, "(pkc::%s(", pki_builtins[a->builtin].py_name);
    pkb_emit_expr(c, a->args[0]);
    /* + 0: C's ceil(-0.5) is -0.0, Python's int 0 converts to 0.0 */
    pkb_put(c->b, a->args[0]->type.kind == PKI_F32 ? ") + 0.0f)" : ") + 0.0)");
    if (!same)
      pkb_put(c->b, ")");
    return;
  }
  if (named_constant(c, a)) { /* static_cast<double>(N): the constexpr N is used */
    pkb_putf(c->b, "static_cast<%s>(", pkb_scalar_ctype(k));
    pkb_emit_expr(c, a);
    pkb_put(c->b, ")");
    return;
  }
  if (a->kind == PKI_E_INT && pki_is_float(k)) { /* float(2) -> 2.0 */
    put_float(c->b, (double)a->ival, k);
    return;
  }
  if (a->kind == PKI_E_FLOAT && pki_is_float(k) && !a->str) {
    put_float(c->b, a->fval, k);
    return;
  }
  if (a->kind == PKI_E_INT && pki_is_int(k) && k != PKI_U64 && k != PKI_U32 &&
      a->ival >= -2147483647 && a->ival <= 2147483647 && (k == PKI_I64 || k == PKI_I32)) {
    put_int(c->b, a->ival, k, false);
    return;
  }
  if (k == PKI_BOOL && a->type.kind != PKI_BOOL && a->kind != PKI_E_VAR &&
      a->kind != PKI_E_INDEX && a->kind != PKI_E_FIELD) {
    /* the truth of a computed number: x * y != 0 (a cast of `x * y`, `n << 2`
     * or `c ? n : 2` to bool draws g++'s -Wint-in-bool-context) */
    pkb_put(c->b, "(");
    emit_sub(c, a, expr_prec(a) < P_UNARY);
    pkb_put(c->b, " != 0)");
    return;
  }
  pkb_putf(c->b, "static_cast<%s>(", pkb_scalar_ctype(k));
  pkb_emit_expr(c, a);
  pkb_put(c->b, ")");
}

static void emit_unary(pkb_ctx *c, const pki_expr *e) {
  const pki_expr *a = e->args[0];
  /* ~ of a uint8/uint16 stays that type (numpy), where C++ promotes to int:
   * ~x of uint16 5 is 65530, not -6 */
  bool narrow = e->op == PKI_OP_INVERT && (e->type.kind == PKI_U8 || e->type.kind == PKI_U16);
  if (narrow)
    pkb_putf(c->b, "static_cast<%s>(", pkb_scalar_ctype(e->type.kind));
  pkb_put(c->b, op_text(e->op));
  bool parens = expr_prec(a) < P_UNARY || a->kind == PKI_E_UNARY ||
                (a->kind == PKI_E_INT && a->ival < 0) ||
                (a->kind == PKI_E_FLOAT && signbit(a->fval));
  emit_sub(c, a, parens);
  if (narrow)
    pkb_put(c->b, ")");
}

static void emit_cond(pkb_ctx *c, const pki_expr *e) {
  emit_sub(c, e->args[0], expr_prec(e->args[0]) <= P_COND);
  pkb_put(c->b, " ? ");
  emit_sub(c, e->args[1], expr_prec(e->args[1]) <= P_COND);
  pkb_put(c->b, " : ");
  emit_sub(c, e->args[2], expr_prec(e->args[2]) <= P_COND);
}

/* Members: `self.x` in @pk.main, `this->x` in classtype methods, else `x`. */
static bool named(const pki_var *v, const char *name) {
  return v && v->kind != PKI_VAR_MEMBER && !strcmp(v->name, name);
}

bool pkb_hides_member(const pki_func *f, const char *name) {
  for (; f; f = f->parent) {
    bool hit = named(f->acc, name) || named(f->final, name);
    for (int i = 0; i < f->nindex; i++)
      hit = hit || named(f->index[i], name);
    for (int i = 0; i < f->nparams; i++)
      hit = hit || named(f->params[i], name);
    for (int i = 0; i < f->nlocals; i++)
      hit = hit || named(f->locals[i], name);
    if (hit)
      return true;
  }
  return false;
}

static bool in_main(const pki_func *f) {
  while (f->parent)
    f = f->parent;
  return f->is_main;
}

static void emit_var(pkb_ctx *c, const pki_var *v) {
  const pki_func *f = c->fn;
  if (v->kind == PKI_VAR_MEMBER && f) {
    if (f->is_main)
      pkb_put(c->b, "self.");
    else if ((f->is_method || f->is_ctor) && f->owner && f->owner->kind == PKI_ENT_CLASSTYPE)
      pkb_put(c->b, "this->");
    else if (!in_main(f) && pkb_hides_member(f, v->name))
      pkb_put(c->b, "this->");
    else if (in_main(f) && pkb_hides_member(f, v->name)) {
      /* a lambda in @pk.main: the renamed copy pkb_emit_dispatch made */
      pkb_put(c->b, "__self_");
      pkb_put_ident(c->b, v->name);
      pkb_put(c->b, "_");
      return;
    }
  }
  pkb_put_ident(c->b, v->name);
}

/* A subview slice: ':' -> Kokkos::ALL(), b:e -> pkc::range(b, e); an open
 * end is the view's extent in that dimension. */
static void emit_slice(pkb_ctx *c, const pki_expr *e, const pki_expr *view, int dim) {
  if (e->ival == 1 || (!e->args[0] && !e->args[1]) || e->nargs < 2) {
    pkb_put(c->b, "Kokkos::ALL()");
    return;
  }
  pkb_put(c->b, "pkc::range(");
  if (e->args[0])
    pkb_emit_expr(c, e->args[0]);
  else
    pkb_put(c->b, "0");
  pkb_put(c->b, ", ");
  if (e->args[1])
    pkb_emit_expr(c, e->args[1]);
  else if (view) {
    pkb_emit_expr(c, view);
    pkb_putf(c->b, ".extent(%d)", dim);
  } else
    pkb_put(c->b, "0");
  pkb_put(c->b, ")");
}

/* Kokkos::subview(v, i, Kokkos::ALL(), ...) */
void pkb_emit_subview(pkb_ctx *c, pki_expr *const *args, int n) {
  pkb_put(c->b, "Kokkos::subview(");
  pkb_emit_expr(c, args[0]);
  for (int i = 1; i < n; i++) {
    pkb_put(c->b, ", ");
    if (args[i]->kind == PKI_E_SLICE)
      emit_slice(c, args[i], args[0], i - 1);
    else
      pkb_emit_expr(c, args[i]);
  }
  pkb_put(c->b, ")");
}

/* The register a repeated chain keeps e's element in (pkb_ctx.point_vars), or NULL. */
static const char *point_local(const pkb_ctx *c, const pki_expr *e) {
  const pki_expr *v = e->args[0];
  for (int k = 0; k < c->npoint && v && (v->kind == PKI_E_VAR || v->kind == PKI_E_FIELD); k++)
    if (c->point_vars[k] == v->var)
      return c->point_names[k];
  return NULL;
}


/* A View index: a module constant goes in as a value (static_cast), since
 * View::operator() binds indices to references and device code cannot refer
 * to a namespace-scope constexpr (nvcc: "undefined in device code"). */
void pkb_emit_index(pkb_ctx *c, const pki_expr *e) {
  const pki_expr *k = named_constant(c, e);
  bool wrap = k && k->kind == PKI_E_INT && e->kind == PKI_E_INT &&
              (e->type.kind == PKI_I64 || e->type.kind == PKI_VOID);
  if (wrap)
    pkb_put(c->b, "static_cast<int64_t>(");
  pkb_emit_expr(c, e);
  if (wrap)
    pkb_put(c->b, ")");
}

static void emit_index_args(pkb_ctx *c, pki_expr *const *args, int n) {
  c->nest++;
  for (int i = 0; i < n; i++) {
    if (i)
      pkb_put(c->b, ", ");
    pkb_emit_index(c, args[i]);
  }
  c->nest--;
}

static void emit_index(pkb_ctx *c, const pki_expr *e) {
  const char *local = c->npoint ? point_local(c, e) : NULL;
  if (local) { /* every access of it is at the point (ir: pki_point_only) */
    pkb_put(c->b, local);
    return;
  }
  for (int i = 1; i < e->nargs; i++)
    if (e->args[i]->kind == PKI_E_SLICE) {
      pkb_emit_subview(c, e->args, e->nargs);
      return;
    }
  bool arr = e->args[0]->type.kind == PKI_ARRAY;
  bool assigned = c->assigned;
  c->assigned = false; /* the indices are read */
  if (c->fn && c->fn->is_main && e->args[0]->type.kind == PKI_VIEW &&
      !pki_is_class_view(e->args[0]->type)) {
    /* host code: pkc::host_at / host_get reach a device View's element too */
    pkb_put(c->b, assigned ? "pkc::host_at(" : "pkc::host_get(");
    pkb_emit_expr(c, e->args[0]);
    pkb_put(c->b, ", ");
    emit_index_args(c, e->args + 1, e->nargs - 1);
    pkb_put(c->b, ")");
    return;
  }
  if (c->o->bounds_check && !arr) { /* PKC_AT(v, i, j): pkc_kokkos.hpp, checked_at */
    pkb_put(c->b, pki_is_class_view(e->args[0]->type) ? "PKC_AT_ELEM(" : "PKC_AT(");
    pkb_emit_expr(c, e->args[0]);
    pkb_put(c->b, ", ");
    emit_index_args(c, e->args + 1, e->nargs - 1);
    pkb_put(c->b, ")");
    return;
  }
  emit_sub(c, e->args[0], expr_prec(e->args[0]) < P_PRIMARY);
  pkb_put(c->b, arr ? "[" : "(");
  emit_index_args(c, e->args + 1, e->nargs - 1);
  pkb_put(c->b, arr ? "]" : ")");
}

/* f(args) or, for a classtype method, receiver.f(args[1..]). */
static void emit_call(pkb_ctx *c, const pki_expr *e) {
  const pki_func *f = e->func;
  bool method = f && f->is_method && f->owner && f->owner->kind == PKI_ENT_CLASSTYPE &&
                e->nargs > 0;
  if (method && e->args[0]->kind != PKI_E_SELF) { /* self.sq() in a method: sq() */
    emit_sub(c, e->args[0], expr_prec(e->args[0]) < P_PRIMARY);
    pkb_put(c->b, ".");
  }
  pkb_put_ident(c->b, f ? f->name : "?");
  pkb_put(c->b, "(");
  emit_call_args(c, e->args + method, e->nargs - method);
  pkb_put(c->b, ")");
}

/* ---- module constants as constexpr (pkb_module_constants) */

static double constant_value(const pki_expr *e) {
  return e->kind == PKI_E_INT ? (double)e->ival : e->fval;
}

/* The same module constant: its name, and its value (an int constant the
 * checker turned into a float literal is still the same constant). */
static bool same_constant(const pki_expr *a, const pki_expr *b) {
  if (strcmp(a->cname, b->cname))
    return false;
  if (a->kind == PKI_E_INT && b->kind == PKI_E_INT)
    return a->ival == b->ival;
  return constant_value(a) == constant_value(b);
}

typedef struct consts_q {
  pki_arena *a;
  pki_vec found, clash; /* constants (first use each); names seen as something else */
} consts_q;

static void const_expr(pki_visitor *v, const pki_expr *e) {
  consts_q *q = v->data;
  if ((e->kind != PKI_E_INT && e->kind != PKI_E_FLOAT) || !e->cname || !*e->cname)
    return;
  for (int i = 0; i < q->found.n; i++) {
    const pki_expr *k = q->found.items[i];
    if (!strcmp(k->cname, e->cname)) {
      if (!same_constant(k, e)) /* not one value: literals only */
        pki_vec_push(q->a, &q->clash, (void *)e->cname);
      else if (e->kind == PKI_E_INT) /* declared with its own type, int */
        q->found.items[i] = (void *)e;
      return;
    }
  }
  pki_vec_push(q->a, &q->found, (void *)e);
}

static void const_var(pki_visitor *v, const pki_var *var) {
  consts_q *q = v->data;
  pki_vec_push(q->a, &q->clash, (void *)var->name);
}

static bool clashes(const consts_q *q, const char *name) {
  /* names generated code declares or calls unqualified in the namespace */
  static const char *const generated[] = {"begin", "end", "f", "printf", "reps", "self",
                                          "timer", "total", "value"};
  for (size_t i = 0; i < sizeof generated / sizeof *generated; i++)
    if (!strcmp(generated[i], name))
      return true;
  for (int i = 0; i < q->clash.n; i++)
    if (!strcmp(q->clash.items[i], name))
      return true;
  return !strncmp(name, "pkc", 3) || (strlen(name) > 4 && !strcmp(name + strlen(name) - 4, "_tag"));
}

/* Names the generated namespace also declares: entities, functions, hosts of @pk.main. */
static void entity_names(consts_q *q, const pki_entity *e) {
  pki_vec_push(q->a, &q->clash, (void *)e->name);
  for (int i = 0; i < e->nfuncs; i++)
    if (e->funcs[i]) {
      pki_vec_push(q->a, &q->clash, (void *)e->funcs[i]->name);
      pki_vec_push(q->a, &q->clash, (void *)pkb_main_name(q->a, e->funcs[i]));
    }
}

void pkb_module_constants(pkb_ctx *c) {
  const pki_module *m = c->m;
  consts_q q = {.a = m->arena};
  pki_visitor v = {.expr = const_expr, .var = const_var, .data = &q};
  for (int i = 0; i < m->nentities; i++)
    if (m->entities[i]) {
      entity_names(&q, m->entities[i]);
      pki_visit_entity(&v, m->entities[i]);
    }
  c->consts = pki_alloc(m->arena, sizeof *c->consts * (size_t)(q.found.n + 1));
  for (int i = 0; i < q.found.n; i++) {
    const pki_expr *k = q.found.items[i];
    if (clashes(&q, k->cname))
      continue;
    c->consts[c->nconsts++] = k;
    pkb_begin(c->b, "constexpr %s ", k->kind != PKI_E_INT ? "double"
                                     : k->unsigned_lit ? "uint64_t" : "int64_t");
    pkb_put_ident(c->b, k->cname);
    pkb_put(c->b, " = ");
    if (k->kind == PKI_E_INT)
      put_int(c->b, k->ival, k->unsigned_lit ? PKI_U64 : PKI_I64, false);
    else
      put_float(c->b, k->fval, PKI_F64);
    pkb_put(c->b, ";\n");
  }
  if (c->nconsts)
    pkb_nl(c->b);
}

static const pki_expr *named_constant(const pkb_ctx *c, const pki_expr *e) {
  if (!c->in_ns || !e->cname || (e->kind != PKI_E_INT && e->kind != PKI_E_FLOAT))
    return NULL;
  for (int i = 0; i < c->nconsts; i++)
    if (same_constant(c->consts[i], e))
      return c->consts[i];
  return NULL;
}

/* A module constant by its constexpr name (converted where its use has
 * another type); false if it is written as a literal. */
static bool emit_constant(pkb_ctx *c, const pki_expr *e) {
  const pki_expr *k = named_constant(c, e);
  if (!k)
    return false;
  pki_kind own = k->kind == PKI_E_INT ? (k->unsigned_lit ? PKI_U64 : PKI_I64) : PKI_F64;
  bool cast = e->type.kind != own && e->type.kind != PKI_VOID;
  if (cast)
    pkb_putf(c->b, "static_cast<%s>(", pkb_scalar_ctype(e->type.kind));
  pkb_put_ident(c->b, e->cname);
  if (cast)
    pkb_put(c->b, ")");
  return true;
}

void pkb_emit_expr(pkb_ctx *c, const pki_expr *e) {
  pkb_buf *b = c->b;
  if ((e->kind == PKI_E_INT || e->kind == PKI_E_FLOAT) && emit_constant(c, e))
    return;
  for (int k = 0; k < c->nchain; k++)
    if (c->chain[k] == e) {
      pkb_putf(b, "pkc_chain%d", k);
      return;
    }
  const pki_expr *cmps[8];
  int ncmp = e->kind == PKI_E_LOGICAL ? chain_compares(e, cmps, 8) : 0;
  if (ncmp > 1 && chain_has_effects(cmps, ncmp)) {
    emit_chain(c, cmps, 0, ncmp);
    return;
  }
  /* long lines break only between the operands of operators outside calls,
   * indexing and the like */
  bool operands = e->kind == PKI_E_BINARY || e->kind == PKI_E_COMPARE ||
                  e->kind == PKI_E_LOGICAL || e->kind == PKI_E_UNARY || e->kind == PKI_E_CAST;
  c->nest += !operands;
  switch (e->kind) {
  case PKI_E_INT: put_int(b, e->ival, e->type.kind, false); break;
  case PKI_E_FLOAT: emit_float(c, e); break;
  case PKI_E_BOOL: pkb_put(b, e->ival ? "true" : "false"); break;
  case PKI_E_STR: pkb_put_cstr(b, e->str ? e->str : ""); break;
  case PKI_E_VAR: emit_var(c, e->var); break;
  case PKI_E_UNARY: emit_unary(c, e); break;
  case PKI_E_BINARY: emit_binary(c, e); break;
  case PKI_E_COMPARE: case PKI_E_LOGICAL: emit_binary_op(c, e); break;
  case PKI_E_COND: emit_cond(c, e); break;
  case PKI_E_CAST: emit_cast(c, e); break;
  case PKI_E_INDEX: emit_index(c, e); break;
  case PKI_E_EXTENT:
    pkb_put(b, "static_cast<int64_t>(");
    pkb_emit_expr(c, e->args[0]);
    pkb_putf(b, ".extent(%lld))", (long long)e->ival);
    break;
  case PKI_E_CALL: emit_call(c, e); break;
  case PKI_E_BUILTIN: emit_builtin(c, e); break;
  case PKI_E_INTRINSIC: pkb_emit_intrinsic(c, e); break;
  case PKI_E_FIELD:
    emit_sub(c, e->args[0], expr_prec(e->args[0]) < P_PRIMARY);
    pkb_put(b, ".");
    pkb_put_ident(b, e->str ? e->str : e->var ? e->var->name : "?");
    break;
  case PKI_E_CONSTRUCT:
    pkb_put_ident(b, e->type.cls ? e->type.cls->name : "?");
    pkb_put(b, "(");
    emit_call_args(c, e->args, e->nargs);
    pkb_put(b, ")");
    break;
  case PKI_E_LIST:
    pkb_put(b, "{");
    emit_call_args(c, e->args, e->nargs);
    pkb_put(b, "}");
    break;
  case PKI_E_SELF: pkb_put(b, "(*this)"); break;
  case PKI_E_SLICE: emit_slice(c, e, NULL, 0); break;
  }
  c->nest -= !operands;
}
