/*
 * check_stmt.c - statement checks for pki_check: declarations and local
 * type inference, assignments, accumulator rules, loops, returns and
 * pk.printf format rewriting; function bodies (work indices, accumulators,
 * closures) and the context queries the other checker files ask.
 */
#include <string.h>

#include "check_priv.h"

static const char *tstr(pki_ck *c, pki_type t) { return pki_type_str(c->m->arena, t); }

static void ck_block(pki_ck *c, pki_block *b);

static pki_func *acc_owner(pki_ck *c, const pki_var *acc);


/* Python spelling of a scalar type for "annotate it" hints. */
static const char *py_type(pki_kind k) {
  switch (k) {
  case PKI_I64: return "int";
  case PKI_F64: return "float";
  case PKI_BOOL: return "bool";
  case PKI_F32: return "pk.float32";
  default: return pki_kind_name(k);
  }
}

/* pki_ck_store "assign ... to <target>"; the place text is only built for an error. */
static pki_expr *store_to(pki_ck *c, pki_expr *e, pki_type to, pki_span at,
                          const pki_expr *target) {
  if (to.kind == PKI_ARRAY && e && e->type.kind == PKI_ARRAY && e->kind != PKI_E_LIST) {
    /* Python would make both names one list; C++ arrays cannot be assigned */
    const char *from = e->kind == PKI_E_VAR && e->var ? e->var->name
                       : e->kind == PKI_E_FIELD && e->str ? e->str : "xs";
    const char *into = target && target->kind == PKI_E_VAR && target->var ? target->var->name
                       : target && target->kind == PKI_E_FIELD && target->str ? target->str
                                                                               : "ys";
    pki_error(c->d, at, "list-assign",
              "assigning List '%s' to '%s' would make them one list in Python, which kernel "
              "Lists (fixed-size arrays) cannot be; copy the elements "
              "(for j in range(%d): %s[j] = %s[j]) or use '%s' directly",
              from, into, to.length, into, from, from);
    return e;
  }
  pki_ck_fit f = e ? pki_ck_fits(e->type, to) : PKI_CK_SKIP;
  const char *place = f == PKI_CK_OK || f == PKI_CK_SKIP ? "" : pki_ck_place(c, target);
  return pki_ck_store(c, e, to, at, "assign", place);
}

static void ck_decl(pki_ck *c, pki_stmt *s) {
  pki_var *v = s->var;
  pki_expr *init = s->value;
  if (v && init && init->kind == PKI_E_INTRINSIC && init->intrinsic == PKI_INTRINSIC_SCRATCH_VIEW &&
      init->type.kind == PKI_VOID && v->type.kind == PKI_VIEW)
    init->type = v->type; /* s: pk.ScratchView1D[T] = pk.ScratchView1D(...) */
  pki_var *base = v && init && init->kind == PKI_E_INTRINSIC &&
                          init->intrinsic == PKI_INTRINSIC_SUBVIEW && init->nargs > 0 &&
                          init->args[0] && init->args[0]->kind == PKI_E_VAR
                      ? init->args[0]->var : NULL;
  unsigned base_access = base ? base->access : 0;
  if (v && init && init->kind == PKI_E_LIST)
    pki_ck_list(c, init, v->type);
  else
    s->value = pki_ck_expr(c, s->value);
  if (base) { /* row = A[i, :]: A is accessed as row is */
    base->access = base_access;
    pki_ck_pass *ps = pki_alloc(c->m->arena, sizeof *ps);
    ps->arg = base;
    ps->param = v;
    pki_vec_push(c->m->arena, &c->passes, ps);
  }
  if (!v)
    return;
  if ((v->type.kind == PKI_BINOP || v->type.kind == PKI_BINSORT) && s->value) {
    if (s->value->type.kind == v->type.kind)
      v->type = s->value->type; /* binop = pk.BinOp3D(self.x, ...): the keys' View type */
    return;
  }
  bool view_ok = pki_ck_in_main(c) || pki_ck_view_local_ok(s->value);
  if (v->type.kind == PKI_VOID) {
    if (!s->value) {
      pki_error(c->d, s->span, "cannot-infer",
                "cannot infer the type of '%s'; annotate it, e.g. %s: float = 0.0", v->name,
                v->name);
      return;
    }
    pki_type t = s->value->type;
    if (t.kind == PKI_VOID)
      return; /* the initializer's error was reported */
    if ((t.kind == PKI_VIEW && !view_ok) || t.kind == PKI_STR || t.kind == PKI_TEAM_MEMBER) {
      pki_error(c->d, s->value->span, "bad-local",
                t.kind == PKI_VIEW
                    ? "Views cannot be copied into locals in kernels; index the View directly"
                : t.kind == PKI_STR ? "strings cannot be stored in locals in kernels"
                                    : "the pk.TeamMember cannot be copied into a local; use it directly");
      return;
    }
    /* Python ints are int64 locals, even when read from an int32 View. */
    if (pki_is_int(t.kind) && t.kind != PKI_U64)
      t = pki_int_type;
    v->type = t;
  } else if (v->type.kind == PKI_VIEW && !view_ok) {
    pki_error(c->d, s->span, "bad-local",
              "Views cannot be copied into locals in kernels; index the View directly");
    return;
  }
  if (s->value) {
    pki_expr t = {.kind = PKI_E_VAR, .var = v, .type = v->type};
    s->value = store_to(c, s->value, v->type, s->span, &t);
  }
}

static const char *reducer_name(const pki_func *f) {
  static const char *const n[] = {"sum", "prod", "min", "max", "maxloc", "minloc",
                                  "band", "bor", "land", "lor", "minmax", "minmaxloc"};
  if (f->pattern == PKI_PATTERN_SCAN)
    return "scan";
  return f->pattern == PKI_PATTERN_REDUCE && f->reducer <= PKI_REDUCER_MINMAXLOC
             ? n[f->reducer]
             : "sum";
}

/* The function whose accumulator is acc (the current one or an enclosing). */
static pki_func *acc_owner(pki_ck *c, const pki_var *acc) {
  for (pki_func *g = c->f; g; g = g->is_closure ? g->parent : NULL)
    if (g->acc == acc)
      return g;
  return c->f;
}

bool pki_ck_acc_whole(pki_ck *c, const pki_var *acc, pki_span at) {
  pki_func *o = acc_owner(c, acc);
  if (o->pattern != PKI_PATTERN_REDUCE || !pki_reducer_has_fields(o->reducer))
    return false;
  if (o->reducer == PKI_REDUCER_MINMAX || o->reducer == PKI_REDUCER_MINMAXLOC)
    pki_error(c->d, at, "acc-rule",
              "the accumulator '%s' of a %s reduction is read and updated through its "
              "fields: if x < %s.min_val: %s.min_val = x (and max_val%s)", acc->name,
              reducer_name(o), acc->name, acc->name,
              o->reducer == PKI_REDUCER_MINMAXLOC ? ", min_loc, max_loc" : "");
  else
    pki_error(c->d, at, "acc-rule",
              "the accumulator '%s' of a %s reduction is read and updated through its "
              "fields: if x > %s.val: %s.val = x; %s.loc = i", acc->name, reducer_name(o),
              acc->name, acc->name, acc->name);
  return true;
}

/* Reducers whose accumulator is updated by assignment: acc = max(acc, x),
 * acc = acc and x. */
static bool minmax(const pki_func *f) {
  return f->pattern == PKI_PATTERN_REDUCE &&
         (f->reducer == PKI_REDUCER_MIN || f->reducer == PKI_REDUCER_MAX ||
          f->reducer == PKI_REDUCER_LAND || f->reducer == PKI_REDUCER_LOR);
}

static bool binsort_result(const pki_expr *v) {
  return v && v->kind == PKI_E_INTRINSIC && (v->intrinsic == PKI_INTRINSIC_BINSORT_COUNT ||
                                             v->intrinsic == PKI_INTRINSIC_BINSORT_OFFSETS ||
                                             v->intrinsic == PKI_INTRINSIC_BINSORT_PERMUTE);
}

/* self.x = sorter.get_bin_count() (offsets, permute vector): copied into the
 * member, which must be a rank-1 integer View (extents checked at run time). */
static void ck_binsort_result(pki_ck *c, pki_stmt *s) {
  pki_expr *t = s->target;
  s->value->ival = 1; /* the one place these results may go */
  s->value = pki_ck_expr(c, s->value);
  if (t->kind == PKI_E_VAR && t->var) { /* the member's elements are written */
    t->type = t->var->type;
    pki_ck_mark(t->var, PKI_ACCESS_WRITE);
  }
  if (t->kind != PKI_E_VAR || !t->var || t->var->kind != PKI_VAR_MEMBER ||
      t->type.kind != PKI_VIEW || t->type.rank != 1 || !pki_is_int(t->type.elem)) {
    pki_error(c->d, t->span, "bad-binsort",
              "sorter.%s() is copied into a data member (self.x) that is a View1D of "
              "integers sized like the result; '%s' is %s",
              pki_intrinsics[s->value->intrinsic].py_name + 2,
              t->kind == PKI_E_VAR && t->var ? t->var->name : "this target",
              pki_type_str(c->m->arena, t->type));
  }
}

static void ck_assign(pki_ck *c, pki_stmt *s) {
  pki_expr *t = s->target;
  if (t && t->kind == PKI_E_VAR && t->var && t->var->kind == PKI_VAR_ACC &&
      pki_ck_acc_whole(c, t->var, t->span)) {
    s->value = pki_ck_expr(c, s->value);
    return;
  }
  if (t && t->kind == PKI_E_VAR && t->var && t->var->kind == PKI_VAR_ACC &&
      !minmax(acc_owner(c, t->var))) {
    pki_func *o = acc_owner(c, t->var);
    bool prod = o->pattern == PKI_PATTERN_REDUCE && o->reducer == PKI_REDUCER_PROD;
    pki_error(c->d, t->span, "acc-rule",
              "cannot assign to the accumulator '%s' of a %s reduction; use %s %s= value",
              t->var->name, reducer_name(o), t->var->name, prod ? "*" : "+");
    s->value = pki_ck_expr(c, s->value);
    return;
  }
  if (binsort_result(s->value)) {
    ck_binsort_result(c, s);
    return;
  }
  bool ok = pki_ck_target(c, t, PKI_ACCESS_WRITE);
  if (ok && t->type.kind == PKI_ARRAY && s->value && s->value->kind == PKI_E_LIST) {
    pki_ck_list(c, s->value, t->type); /* a classtype's List field in its __init__ */
    return;
  }
  s->value = pki_ck_expr(c, s->value);
  if (ok)
    s->value = store_to(c, s->value, t->type, s->span, t);
}

/* The reduction's accumulator only takes its combining augmented op. */
static bool acc_op_ok(pki_ck *c, pki_stmt *s, const pki_var *acc) {
  pki_func *o = acc_owner(c, acc);
  bool red = o->pattern == PKI_PATTERN_REDUCE;
  pki_op want = red && o->reducer == PKI_REDUCER_PROD   ? PKI_OP_MUL
                : red && o->reducer == PKI_REDUCER_BAND ? PKI_OP_BITAND
                : red && o->reducer == PKI_REDUCER_BOR  ? PKI_OP_BITOR
                                                        : PKI_OP_ADD;
  if (red && pki_reducer_has_fields(o->reducer))
    return false; /* reported by pki_ck_target (pki_ck_acc_whole) */
  if (minmax(o)) {
    bool logical = o->reducer == PKI_REDUCER_LAND || o->reducer == PKI_REDUCER_LOR;
    pki_error(c->d, s->span, "acc-rule",
              "the accumulator '%s' of a %s reduction is updated by assignment, e.g. "
              "%s = %s%s%s, x) (got %s=)", acc->name, reducer_name(o), acc->name,
              logical ? acc->name : reducer_name(o), logical ? "" : "(",
              logical ? (o->reducer == PKI_REDUCER_LAND ? " and (" : " or (") : acc->name,
              pki_ck_op_sym(s->op));
    return false;
  }
  if (s->op == want || (want == PKI_OP_ADD && s->op == PKI_OP_SUB)) /* sums join with + */
    return true;
  pki_error(c->d, s->span, "acc-rule",
            "the accumulator '%s' of a %s%s only supports %s (got %s=)", acc->name,
            reducer_name(o), o->pattern == PKI_PATTERN_SCAN ? "" : " reduction",
            want == PKI_OP_MUL ? "*=" : want == PKI_OP_BITAND ? "&=" : want == PKI_OP_BITOR ? "|="
                                                                             : "+= and -=",
            pki_ck_op_sym(s->op));
  return false;
}

static void ck_augassign(pki_ck *c, pki_stmt *s) {
  pki_expr *t = s->target;
  bool ok = pki_ck_target(c, t, PKI_ACCESS_READ | PKI_ACCESS_WRITE);
  s->value = pki_ck_expr(c, s->value);
  if (ok && t->kind == PKI_E_VAR && t->var->kind == PKI_VAR_ACC)
    ok = acc_op_ok(c, s, t->var);
  if (!ok || !s->value)
    return;
  pki_type operand;
  pki_type r = pki_ck_binop(c, s->op, t, s->value, s->span, &operand);
  if (r.kind == PKI_VOID)
    return;
  pki_ck_fit fit = pki_ck_fits(r, t->type);
  if (fit == PKI_CK_FLOAT_TO_INT) {
    /* C++'s `x op= v` converts the result back implicitly (PyKokkos semantics) */
    pki_warning(c->d, s->span, "implicit-conversion",
                "implicit conversion: the result of %s= is %s, stored %s, which truncates "
                "toward zero as in C++; %s", pki_ck_op_sym(s->op), tstr(c, r),
                pki_ck_place(c, t),
                s->op == PKI_OP_DIV ? "use //= for integer division" : "write int(...) to make it explicit");
  }
  s->value = pki_ck_conv(c, s->value, operand);
}

/* range() bounds: integers, cast to int64. */
static pki_expr *ck_range_arg(pki_ck *c, pki_expr *e) {
  e = pki_ck_expr(c, e);
  if (!e || e->type.kind == PKI_VOID)
    return e;
  if (e->type.kind != PKI_BOOL && !pki_is_int(e->type.kind)) {
    pki_error(c->d, e->span, "type-mismatch", "range() needs integers, got %s%s",
              tstr(c, e->type), pki_is_float(e->type.kind) ? "; use int(...)" : "");
    return e;
  }
  return pki_ck_conv(c, e, pki_int_type);
}

static void ck_for(pki_ck *c, pki_stmt *s) {
  s->begin = ck_range_arg(c, s->begin);
  s->end = ck_range_arg(c, s->end);
  s->step = ck_range_arg(c, s->step);
  int64_t step = 1;
  if (s->step && pki_const_int(s->step, &step) && step == 0)
    pki_error(c->d, s->step->span, "zero-step",
              "range() step must not be zero (Python raises ValueError; the loop would "
              "never end)");
  if (s->var && (s->var->type.kind == PKI_VOID || pki_is_int(s->var->type.kind)))
    s->var->type = pki_int_type;
  ck_block(c, &s->body);
}

static void ck_return(pki_ck *c, pki_stmt *s) {
  pki_func *f = c->f;
  s->value = pki_ck_expr(c, s->value);
  if (f->is_workunit || f->is_closure || f->is_main) {
    if (s->value)
      pki_error(c->d, s->value->span, "bad-return",
                f->is_main ? "@pk.main cannot return a value; store results in members"
                : f->is_closure
                    ? "a nested function cannot return a value; use an accumulator "
                      "(pk.parallel_reduce) or write into a View"
                    : "a workunit cannot return a value; write results into a View or use "
                      "pk.parallel_reduce with an accumulator");
    return;
  }
  if (!s->value) {
    if (f->ret.kind != PKI_VOID)
      pki_error(c->d, s->span, "bad-return", "'%s' is declared -> %s and must return a value",
                f->name, tstr(c, f->ret));
    return;
  }
  c->value_return = true;
  if (f->ret.kind == PKI_VOID) {
    if (f->ret_annotated)
      pki_error(c->d, s->value->span, "bad-return",
                "'%s' is declared -> None but returns a value", f->name);
    else if (s->value->type.kind != PKI_VOID)
      pki_error(c->d, s->value->span, "bad-return",
                "device function '%s' returns a value but has no return type; "
                "annotate it: def %s(...) -> %s:",
                f->name, f->name, py_type(s->value->type.kind));
    return;
  }
  const char *place = pki_sprintf(c->m->arena, "from '%s' (declared -> %s)", f->name,
                                  tstr(c, f->ret));
  s->value = pki_ck_store(c, s->value, f->ret, s->value->span, "return", place);
}

static void ck_expr_stmt(pki_ck *c, pki_stmt *s) {
  pki_expr *e = s->value;
  if (!e || e->kind == PKI_E_STR) /* docstrings */
    return;
  if (e->kind == PKI_E_CALL) {
    pki_ck_call_expr(c, e, true);
    return;
  }
  if (e->kind == PKI_E_INTRINSIC) {
    pki_ck_intrinsic(c, e, true);
    return;
  }
  s->value = pki_ck_expr(c, e);
  pki_error(c->d, e->span, "bad-statement",
            "this expression has no effect; only calls can be used as statements");
}

static void ck_assert(pki_ck *c, pki_stmt *s) {
  s->cond = pki_ck_bool(c, s->cond);
  pki_expr *msg = s->nargs > 0 ? s->args[0] : NULL;
  if (!msg)
    return;
  if (msg->kind != PKI_E_STR)
    pki_error(c->d, msg->span, "bad-assert",
              "an assert message in a kernel must be a string literal");
  else
    msg->type = pki_scalar(PKI_STR);
}

/* ------------------------------------------------------------- pk.printf */

/* One printf conversion's C length+conversion and argument type; NULL if
 * unsupported. */
static const char *printf_conv(char conv, pki_kind *arg) {
  switch (conv) {
  case 'd': case 'i': *arg = PKI_I64; return "lld";
  case 'u': *arg = PKI_U64; return "llu";
  case 'o': *arg = PKI_U64; return "llo";
  case 'x': *arg = PKI_U64; return "llx";
  case 'X': *arg = PKI_U64; return "llX";
  case 'c': *arg = PKI_I32; return "c";
  case 'f': *arg = PKI_F64; return "f";
  case 'F': *arg = PKI_F64; return "F";
  case 'e': *arg = PKI_F64; return "e";
  case 'E': *arg = PKI_F64; return "E";
  case 'g': *arg = PKI_F64; return "g";
  case 'G': *arg = PKI_F64; return "G";
  default: return NULL;
  }
}

/* Casts printf argument i (1-based) to kind k, if it exists. */
static void printf_arg(pki_ck *c, pki_stmt *s, int i, pki_kind k) {
  if (i >= s->nargs || !s->args[i] || s->args[i]->type.kind == PKI_VOID)
    return;
  if (!pki_is_numeric(s->args[i]->type.kind)) {
    pki_error(c->d, s->args[i]->span, "printf-format",
              "pk.printf argument %d must be a number, got %s", i, tstr(c, s->args[i]->type));
    return;
  }
  s->args[i] = pki_ck_conv(c, s->args[i], pki_scalar(k));
}

/* Parses one conversion at *p (just after '%'); appends its C form to out.
 * Returns false after reporting an error. */
static bool printf_one(pki_ck *c, pki_stmt *s, const char **pp, char *out, size_t *o,
                       int argi) {
  const char *p = *pp, *spec = p;
  pki_span at = s->args[0]->span;
  if (*p == '(') {
    pki_error(c->d, at, "printf-format", "pk.printf formats cannot use %%(name) keys");
    return false;
  }
  while (*p && strchr("-+ #0", *p))
    p++;
  while (*p >= '0' && *p <= '9')
    p++;
  if (*p == '.')
    for (p++; *p >= '0' && *p <= '9';)
      p++;
  if (*p == '*') {
    pki_error(c->d, at, "printf-format",
              "pk.printf: '*' widths are not supported; write the width into the format");
    return false;
  }
  const char *spec_end = p;
  while (*p && strchr("hlL", *p))
    p++; /* Python ignores length modifiers (h, l, L); pkc picks its own */
  pki_kind k = PKI_VOID;
  const char *conv = *p ? printf_conv(*p, &k) : NULL;
  if (!conv) {
    if (!*p)
      pki_error(c->d, at, "printf-format", "pk.printf format ends inside a conversion");
    else if (*p == 's' || *p == 'r' || *p == 'a')
      pki_error(c->d, at, "printf-format",
                "pk.printf cannot print strings in kernels (%%%c); use %%d or %%f", *p);
    else if (*p > ' ' && *p < 127)
      pki_error(c->d, at, "printf-format", "pk.printf: unsupported conversion '%%%c'", *p);
    else
      pki_error(c->d, at, "printf-format",
                "pk.printf: '%%' is followed by character 0x%02x, which is no conversion "
                "(write %%%% for a percent sign)", (unsigned)(unsigned char)*p);
    return false;
  }
  out[(*o)++] = '%';
  memcpy(out + *o, spec, (size_t)(spec_end - spec));
  *o += (size_t)(spec_end - spec);
  memcpy(out + *o, conv, strlen(conv));
  *o += strlen(conv);
  printf_arg(c, s, argi, k);
  *pp = p + 1;
  return true;
}

/* Rewrites a pk.printf format into C and casts its arguments. */
static void ck_printf(pki_ck *c, pki_stmt *s) {
  for (int i = 1; i < s->nargs; i++)
    s->args[i] = pki_ck_expr(c, s->args[i]);
  pki_expr *f = s->nargs > 0 ? s->args[0] : NULL;
  if (!f || f->kind != PKI_E_STR || !f->str) {
    pki_error(c->d, f ? f->span : s->span, "printf-format",
              "pk.printf needs a string literal as its format");
    return;
  }
  f->type = pki_scalar(PKI_STR);
  size_t len = strlen(f->str), o = 0;
  char *out = pki_alloc(c->m->arena, 3 * len + 1);
  int n = 0;
  for (const char *p = f->str; *p;) {
    if (*p != '%') {
      out[o++] = *p++;
    } else if (p[1] == '%') {
      out[o++] = '%';
      out[o++] = '%';
      p += 2;
    } else {
      p++;
      if (!printf_one(c, s, &p, out, &o, ++n))
        return;
    }
  }
  out[o] = 0;
  if (n != s->nargs - 1) {
    pki_error(c->d, s->span, "printf-format",
              "pk.printf format has %d conversion%s but %d argument%s", n, n == 1 ? "" : "s",
              s->nargs - 1, s->nargs - 1 == 1 ? "" : "s");
    return;
  }
  f->str = out;
}

static void ck_stmt(pki_ck *c, pki_stmt *s) {
  switch (s->kind) {
  case PKI_S_DECL: ck_decl(c, s); break;
  case PKI_S_ASSIGN: ck_assign(c, s); break;
  case PKI_S_AUGASSIGN: ck_augassign(c, s); break;
  case PKI_S_IF:
    s->cond = pki_ck_bool(c, s->cond);
    ck_block(c, &s->body);
    ck_block(c, &s->orelse);
    break;
  case PKI_S_WHILE:
    s->cond = pki_ck_bool(c, s->cond);
    ck_block(c, &s->body);
    break;
  case PKI_S_FOR: ck_for(c, s); break;
  case PKI_S_RETURN: ck_return(c, s); break;
  case PKI_S_EXPR: ck_expr_stmt(c, s); break;
  case PKI_S_PRINTF: ck_printf(c, s); break;
  case PKI_S_BREAK: case PKI_S_CONTINUE: break;
  case PKI_S_ASSERT: ck_assert(c, s); break;
  case PKI_S_NESTED: pki_ck_nested(c, s); break;
  case PKI_S_SINGLE: pki_ck_single(c, s); break;
  case PKI_S_DISPATCH: pki_ck_dispatch(c, s); break;
  }
}

static void ck_block(pki_ck *c, pki_block *b) {
  for (int i = 0; i < b->n; i++)
    if (b->stmts[i])
      ck_stmt(c, b->stmts[i]);
}

/* ------------------------------------------------------------- function bodies */

bool pki_ck_in_team(const pki_ck *c) {
  pki_func *r = pki_root_func(c->f);
  return r && r->is_workunit && r->policy == PKI_POLICY_TEAM;
}

bool pki_ck_in_main(const pki_ck *c) {
  for (pki_func *g = c->f; g; g = g->is_closure ? g->parent : NULL) {
    if (g->is_main)
      return true;
    if (g->is_closure && g->is_workunit)
      return false; /* a lambda kernel dispatched by @pk.main runs on the device */
  }
  return false;
}

/* A team workunit's first parameter is the pk.TeamMember. */
static void ck_team_index(pki_ck *c, pki_func *f) {
  pki_var *v = f->nindex == 1 ? f->index[0] : NULL;
  if (v && v->type.kind == PKI_VOID)
    v->type = pki_scalar(PKI_TEAM_MEMBER);
  if (v && v->type.kind == PKI_TEAM_MEMBER)
    return;
  pki_error(c->d, v ? v->span : f->span, "team-member",
            "TeamPolicy workunit '%s' takes one pk.TeamMember as its first parameter: "
            "def %s(m: pk.TeamMember, ...)",
            f->name, f->name);
}

/* Work indices are int64 (MDRange workunits: 2..6 of them). */
static void ck_indices(pki_ck *c, pki_func *f) {
  if (f->is_workunit && !f->is_closure && f->policy == PKI_POLICY_TEAM) {
    ck_team_index(c, f);
    return;
  }
  if (f->is_workunit && !f->is_closure && f->policy == PKI_POLICY_MDRANGE &&
      (f->nindex < 2 || f->nindex > 6))
    pki_error(c->d, f->span, "mdrange-rank",
              "MDRangePolicy workunit '%s' has %d index parameter%s; it needs 2 to 6 "
              "(def %s(i: int, j: int, ...))",
              f->name, f->nindex, f->nindex == 1 ? "" : "s", f->name);
  for (int i = 0; i < f->nindex; i++) {
    pki_var *v = f->index[i];
    if (!v)
      continue;
    if (v->type.kind == PKI_VOID || pki_is_int(v->type.kind))
      v->type = pki_int_type;
    else
      pki_error(c->d, v->span, "bad-index",
                "work index '%s' must be an int, not %s", v->name,
                pki_type_str(c->m->arena, v->type));
  }
}

/* Kokkos reduces values whose size is a multiple of an int's; Python's
 * `acc += flag` counts anyway (True + True == 2). */
static void ck_acc(pki_ck *c, pki_func *f) {
  if (!f->acc || f->acc->type.kind != PKI_BOOL ||
      (f->pattern == PKI_PATTERN_REDUCE &&
       (f->reducer == PKI_REDUCER_LAND || f->reducer == PKI_REDUCER_LOR)))
    return; /* (pk.LAnd / pk.LOr reduce a bool, held in an int) */
  pki_error(c->d, f->acc->span, "bool-acc",
            "a bool accumulator cannot be reduced (Kokkos needs an int-sized value); "
            "declare '%s: pk.Acc[int]': %s += cond then counts, as in Python "
            "where True + True == 2",
            f->acc->name, f->acc->name);
}

void pki_ck_body(pki_ck *c, pki_func *f) {
  ck_indices(c, f);
  ck_acc(c, f);
  if (f->final && f->final->type.kind == PKI_VOID)
    f->final->type = pki_bool_type;
  ck_block(c, &f->body);
}

static bool is_done(pki_ck *c, pki_func *g) {
  for (int i = 0; i < c->done.n; i++)
    if (c->done.items[i] == g)
      return true;
  return false;
}

void pki_ck_closure(pki_ck *c, pki_func *g) {
  if (!g || is_done(c, g))
    return;
  pki_vec_push(c->m->arena, &c->done, g);
  pki_func *f0 = c->f;
  bool vr0 = c->value_return;
  c->f = g;
  pki_ck_body(c, g);
  c->f = f0;
  c->value_return = vr0;
}
