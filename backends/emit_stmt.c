/*
 * emit_stmt.c - IR statements to C++ (block scope, #line directives); the
 * uses pki_check recorded keep -Wunused-* quiet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pkb_priv.h"

/* ------------------------------------------------------------ reads */

/* pki_check records how each variable is used (pki_record_uses). */
bool pkb_var_read(const pki_func *f, const pki_var *v) { return v->uses & PKI_USE_READ; }

bool pkb_var_used(const pki_func *f, const pki_var *v) { return v->uses & PKI_USE_NAMED; }

/* ------------------------------------------------------------ helpers */

/* Restores the compiler's idea of the current line after Python-mapped code. */
void pkb_restore_line(pkb_ctx *c) {
  if (!c->o->line_directives)
    return;
  /* count newlines incrementally: the buffer only grows */
  for (size_t i = c->lines_scanned; i < c->b->len; i++)
    c->lines_counted += c->b->data[i] == '\n';
  c->lines_scanned = c->b->len;
  /* + 2: the line after the directive itself */
  pkb_putf(c->b, "#line %d \"%s.cpp\"\n", c->lines_counted + 2, c->m->name);
  c->b->py_line = 0;
}

void pkb_default_return(pkb_ctx *c, const pki_func *f) {
  const pki_block *body = &f->body;
  if (f->ret.kind == PKI_VOID || (body->n > 0 && body->stmts[body->n - 1]->kind == PKI_S_RETURN))
    return;
  pkb_begin(c->b, "return ");
  pkb_put_type(c->b, f->ret);
  pkb_put(c->b, "();\n"); /* unreachable when every path returns */
}

/* Maps the next line to s's Python line: a #line directive, unless the lines
 * since the last one already count up to it. */
void pkb_line_directive(pkb_ctx *c, const pki_stmt *s) {
  pkb_buf *b = c->b;
  if (!c->o->line_directives || s->span.line == 0)
    return;
  if (b->py_line) {
    unsigned at = b->py_line;
    for (size_t i = b->py_from; i < b->len; i++)
      at += b->data[i] == '\n';
    if (at == s->span.line)
      return;
  }
  const char *path = c->m->abspath;
  if (!strpbrk(path, "\"\\?\n\r\t")) {
    pkb_putf(b, "#line %u \"%s\"\n", (unsigned)s->span.line, path);
  } else {
    pkb_putf(b, "#line %u ", (unsigned)s->span.line); /* a path with quotes etc. */
    pkb_put_cstr(b, path);
    pkb_put(b, "\n");
  }
  b->py_line = s->span.line;
  b->py_from = b->len;
}

static void expr(pkb_ctx *c, const pki_expr *e) { pkb_emit_expr(c, e); }

/* The target of an assignment (an element @pk.main writes: pkc::host_at). */
static void target(pkb_ctx *c, const pki_expr *e) {
  c->assigned = true;
  pkb_emit_expr(c, e);
  c->assigned = false;
}

/* The value of an assignment, declaration or return: a long sum may
 * continue on the next line (pkb_emit_expr). */
static void value(pkb_ctx *c, const pki_expr *e) {
  c->wrap = true;
  pkb_emit_expr(c, e);
  c->wrap = false;
}

/* A zero of type t, for declarations without a value. */
static void put_zero(pkb_buf *b, pki_type t) {
  if (t.kind == PKI_BOOL)
    pkb_put(b, "false");
  else if (pki_is_float(t.kind))
    pkb_put(b, t.kind == PKI_F32 ? "0.0f" : "0.0");
  else if (pki_is_int(t.kind))
    pkb_put(b, "0");
  else {
    pkb_put_type(b, t);
    pkb_put(b, "()");
  }
}

static bool is_intrinsic(const pki_expr *e, pki_intrinsic id) {
  return e && e->kind == PKI_E_INTRINSIC && e->intrinsic == id;
}

/* Declarations whose C++ form differs from "T x = value;". */
static bool emit_special_decl(pkb_ctx *c, const pki_stmt *s) {
  pkb_buf *b = c->b;
  const pki_var *v = s->var;
  pki_type t = v->type;
  if (v->kind == PKI_VAR_MEMBER) { /* self.x: T = value in a constructor */
    pkb_begin(b, "%s", "");
    pkb_emit_expr(c, &(pki_expr){.kind = PKI_E_VAR, .var = (pki_var *)v, .type = t});
    pkb_put(b, " = ");
    if (s->value)
      expr(c, s->value);
    else
      put_zero(b, t);
    pkb_put(b, ";\n");
    return true;
  }
  if (t.kind == PKI_TIMER || is_intrinsic(s->value, PKI_INTRINSIC_TIMER_NEW)) {
    pkb_begin(b, "Kokkos::Timer ");
    pkb_put_ident(b, v->name);
    pkb_put(b, ";\n");
    return true;
  }
  if ((t.kind == PKI_BINOP || t.kind == PKI_BINSORT) && s->value) {
    pkb_begin(b, "auto "); /* Kokkos::BinOp3D<Key> / pkc::BinSort<Key, Op> */
    pkb_put_ident(b, v->name);
    pkb_put(b, " = ");
    expr(c, s->value);
    pkb_put(b, ";\n");
    return true;
  }
  if (t.kind == PKI_ARRAY) { /* only stored into: nvcc counts no (void) as a use of an array */
    bool unread = c->fn && !pkb_var_read(c->fn, v);
    pkb_begin(b, "%s%s ", unread ? "[[maybe_unused]] " : "", pkb_scalar_ctype(t.elem));
    pkb_put_ident(b, v->name);
    pkb_putf(b, "[%d] = ", t.length);
    if (s->value && s->value->kind == PKI_E_LIST)
      expr(c, s->value);
    else
      pkb_put(b, "{}");
    pkb_put(b, ";\n");
    return true;
  }
  bool scratch = is_intrinsic(s->value, PKI_INTRINSIC_SCRATCH_VIEW);
  if (scratch || (t.kind == PKI_VIEW && s->value) || t.kind == PKI_RAND_STATE) {
    if (scratch) { /* pkc::ScratchView<double *> s(m.team_scratch(0), n); */
      pki_type st = t;
      st.space = PKI_SPACE_SCRATCH;
      pkb_begin(b, "%s", "");
      pkb_put_type(b, st);
      pkb_put(b, " ");
      pkb_put_ident(b, v->name);
      pkb_put(b, "(");
      for (int i = 0; i < s->value->nargs; i++) {
        if (i)
          pkb_put(b, ", ");
        expr(c, s->value->args[i]);
      }
      pkb_put(b, ");\n");
      return true;
    }
    if (!s->value)
      return false;
    pkb_begin(b, "auto "); /* subviews, generator states */
    pkb_put_ident(b, v->name);
    pkb_put(b, " = ");
    expr(c, s->value);
    pkb_put(b, ";\n");
    return true;
  }
  return false;
}

/* `x = y` into a local no statement reads, from a value without effects
 * (a variable or a literal): leaving it out changes nothing. */
static bool dead_store(const pkb_ctx *c, const pki_stmt *s) {
  const pki_expr *t = s->target, *v = s->value;
  v = pki_uncast(v);
  return c->fn && t && t->kind == PKI_E_VAR && t->var->kind == PKI_VAR_LOCAL &&
         !pkb_var_read(c->fn, t->var) && v &&
         (v->kind == PKI_E_VAR || v->kind == PKI_E_INT || v->kind == PKI_E_FLOAT ||
          v->kind == PKI_E_BOOL);
}

/* The operand of e when e converts a narrower integer to int64 (every value
 * kept, as C++ converts implicitly where an int64_t is declared): the cast
 * need not be written there. NULL otherwise. */
static const pki_expr *widening_to_i64(const pki_expr *e) {
  if (!e || e->kind != PKI_E_CAST || e->type.kind != PKI_I64 || e->nargs < 1 || !e->args[0])
    return NULL;
  pki_kind k = e->args[0]->type.kind;
  bool narrower = k == PKI_I8 || k == PKI_I16 || k == PKI_I32 || k == PKI_U8 || k == PKI_U16 ||
                  k == PKI_U32;
  return narrower ? e->args[0] : NULL;
}

static void emit_decl(pkb_ctx *c, const pki_stmt *s) {
  if (!emit_special_decl(c, s)) {
    const pki_var *v = s->var; /* a number assigned only here is const */
    bool once = v->kind == PKI_VAR_LOCAL && !(v->uses & PKI_USE_ASSIGNED) &&
                pki_is_numeric(v->type.kind);
    /* an unread loop variable another loop reuses: nvcc counts no (void) as its use */
    bool quiet = v->loop_alias && c->fn && !pkb_var_read(c->fn, v);
    pkb_begin(c->b, "%s%s", quiet ? "[[maybe_unused]] " : "", once ? "const " : "");
    pkb_put_type(c->b, s->var->type);
    pkb_put(c->b, " ");
    pkb_put_ident(c->b, s->var->name);
    pkb_put(c->b, " = ");
    const pki_expr *narrow = s->var->type.kind == PKI_I64 ? widening_to_i64(s->value) : NULL;
    if (s->value)
      value(c, narrow ? narrow : s->value);
    else
      put_zero(c->b, s->var->type);
    pkb_put(c->b, ";\n");
  }
  if (s->var->kind == PKI_VAR_MEMBER || s->var->loop_alias || s->var->type.kind == PKI_ARRAY)
    return; /* (an unread List is declared [[maybe_unused]]) */
  if (c->fn)
    pkb_void_unread(c, c->fn, s->var);
}

static const char *aug_text(pki_op op) {
  switch (op) {
  case PKI_OP_ADD: return "+=";
  case PKI_OP_SUB: return "-=";
  case PKI_OP_MUL: return "*=";
  case PKI_OP_DIV: return "/=";
  case PKI_OP_BITAND: return "&=";
  case PKI_OP_BITOR: return "|=";
  case PKI_OP_BITXOR: return "^=";
  case PKI_OP_SHL: return "<<=";
  case PKI_OP_SHR: return ">>=";
  default: return NULL;
  }
}

static void emit_augassign(pkb_ctx *c, const pki_stmt *s) {
  const char *t = aug_text(s->op);
  int64_t k;
  bool shift = s->op == PKI_OP_SHL || s->op == PKI_OP_SHR;
  if (shift && !pki_const_int(s->value, &k))
    t = NULL; /* a count known at run time: pkc::shift_left/right, as emit_expr.c */
  if (t) {
    pkb_begin(c->b, "%s", "");
    target(c, s->target);
    pkb_putf(c->b, " %s ", t);
    value(c, s->value);
    pkb_put(c->b, ";\n");
    return;
  }
  /* //=, %=, **= through the Python-semantics helpers; a target whose
   * index has effects (an atomic, a draw, a call) is found once */
  const char *fn = s->op == PKI_OP_FLOORDIV ? "pkc::floordiv"
                   : s->op == PKI_OP_MOD    ? "pkc::pymod"
                   : s->op == PKI_OP_SHL    ? "pkc::shift_left"
                   : s->op == PKI_OP_SHR    ? "pkc::shift_right"
                   : pki_is_float(s->target->type.kind) ? "pkc::pow"
                                                        : "pkc::ipow";
  bool square = s->op == PKI_OP_POW && pki_is_float(s->target->type.kind) && pkb_is_two(s->value);
  bool once = s->target->kind != PKI_E_VAR && pki_expr_has_effects(s->target);
  if (square)
    fn = "pkc::square";
  if (once) {
    pkb_line(c->b, "{");
    c->b->indent++;
    pkb_begin(c->b, "auto &&pkc_target = ");
    target(c, s->target);
    pkb_put(c->b, ";\n");
    pkb_begin(c->b, "pkc_target = %s(pkc_target%s", fn, square ? "" : ", ");
  } else {
    pkb_begin(c->b, "%s", "");
    target(c, s->target);
    pkb_putf(c->b, " = %s(", fn);
    expr(c, s->target);
    if (!square)
      pkb_put(c->b, ", ");
  }
  if (!square)
    expr(c, s->value);
  pkb_put(c->b, ");\n");
  if (once) {
    c->b->indent--;
    pkb_line(c->b, "}");
  }
}

static void open_block(pkb_ctx *c) {
  pkb_put(c->b, " {\n");
  c->b->indent++;
}

static void close_block(pkb_ctx *c, const char *after) {
  c->b->indent--;
  pkb_line(c->b, "}%s", after);
}

static void emit_if(pkb_ctx *c, const pki_stmt *s, bool is_elif) {
  if (!is_elif)
    pkb_begin(c->b, "if (");
  else
    pkb_put(c->b, "if (");
  expr(c, s->cond);
  pkb_put(c->b, ")");
  open_block(c);
  pkb_emit_block(c, &s->body);
  if (s->orelse.n == 0) {
    close_block(c, "");
    return;
  }
  c->b->indent--;
  if (s->orelse.n == 1 && s->orelse.stmts[0]->kind == PKI_S_IF) {
    pkb_begin(c->b, "} else ");
    emit_if(c, s->orelse.stmts[0], true);
    return;
  }
  pkb_begin(c->b, "} else");
  open_block(c);
  pkb_emit_block(c, &s->orelse);
  close_block(c, "");
}

/* Can the loop bound be re-evaluated every iteration without changing meaning? */
static bool simple_bound(const pki_expr *e) {
  if (e->kind == PKI_E_INT || e->kind == PKI_E_VAR)
    return true;
  if (e->kind == PKI_E_EXTENT)
    return true;
  if (e->kind == PKI_E_CAST)
    return simple_bound(e->args[0]);
  return false;
}

static bool bound_stable(const pki_expr *e, const pki_block *body) {
  if (!simple_bound(e))
    return false;
  e = pki_uncast(e);
  if (e->kind == PKI_E_VAR)
    return !pki_block_assigns(body, e->var);
  return true;
}

static void emit_for(pkb_ctx *c, const pki_stmt *s) {
  pkb_buf *b = c->b;
  const pki_var *v = s->var;
  const char *ty = pkb_scalar_ctype(v->type.kind);
  pkb_begin(b, "for (%s ", ty);
  pkb_put_ident(b, v->name);
  pkb_put(b, " = ");
  if (s->begin)
    expr(c, s->begin);
  else
    pkb_put(b, "0");
  bool hoist_end = !bound_stable(s->end, &s->body);
  const pki_expr *st = s->step;
  bool lit = !st || st->kind == PKI_E_INT;
  bool hoist_step = !lit && !bound_stable(st, &s->body);
  if (hoist_end) {
    pkb_put(b, ", pkc_end_");
    pkb_put_ident(b, v->name);
    pkb_put(b, " = ");
    expr(c, s->end);
  }
  if (hoist_step) {
    pkb_put(b, ", pkc_step_");
    pkb_put_ident(b, v->name);
    pkb_put(b, " = ");
    expr(c, st);
  }
  pkb_put(b, "; ");
  /* condition */
  int64_t step = lit ? (st ? st->ival : 1) : 0;
  if (!lit)
    pkb_put(b, "pkc::range_cond(");
  pkb_put_ident(b, v->name);
  pkb_put(b, lit ? (step > 0 ? " < " : " > ") : ", ");
  if (hoist_end) {
    pkb_put(b, "pkc_end_");
    pkb_put_ident(b, v->name);
  } else
    expr(c, s->end);
  if (!lit) {
    pkb_put(b, ", ");
    if (hoist_step) {
      pkb_put(b, "pkc_step_");
      pkb_put_ident(b, v->name);
    } else
      expr(c, st);
    pkb_put(b, ")");
  }
  pkb_put(b, "; ");
  /* increment */
  if (lit && step == 1) {
    pkb_put(b, "++");
    pkb_put_ident(b, v->name);
  } else if (lit && step == -1) {
    pkb_put(b, "--");
    pkb_put_ident(b, v->name);
  } else {
    pkb_put_ident(b, v->name);
    if (lit)
      pkb_putf(b, step > 0 ? " += %lld" : " -= %lld", (long long)(step > 0 ? step : -step));
    else if (hoist_step) {
      pkb_put(b, " += pkc_step_");
      pkb_put_ident(b, v->name);
    } else {
      pkb_put(b, " += ");
      expr(c, st);
    }
  }
  pkb_put(b, ")");
  open_block(c);
  if (c->fn)
    pkb_void_unread(c, c->fn, v);
  pkb_emit_block(c, &s->body);
  close_block(c, "");
}

/* ------------------------------------------------------------ printf */

/* C type a printf conversion expects, or NULL (no cast needed / unknown). */
static const char *printf_ctype(const char *len, char conv) {
  bool sgn = conv == 'd' || conv == 'i';
  bool uns = conv == 'u' || conv == 'x' || conv == 'X' || conv == 'o';
  if (strchr("fFeEgGaA", conv))
    return "double";
  if (conv == 'c')
    return "int";
  if (!sgn && !uns)
    return NULL;
  if (!strcmp(len, "ll") || !strcmp(len, "j") || !strcmp(len, "q"))
    return sgn ? "long long" : "unsigned long long";
  if (!strcmp(len, "l") || !strcmp(len, "z") || !strcmp(len, "t"))
    return sgn ? "long" : "unsigned long";
  return sgn ? "int" : "unsigned";
}

/* Fills want[i] with the C type of the i-th variadic argument. */
static int printf_types(const char *fmt, const char **want, int max) {
  int n = 0;
  for (const char *p = fmt; *p && n < max; p++) {
    if (*p != '%')
      continue;
    p++;
    if (*p == '%')
      continue;
    while (*p && strchr("-+ #0'", *p))
      p++;
    if (*p == '*') {
      want[n++] = "int";
      p++;
    }
    while (*p >= '0' && *p <= '9')
      p++;
    if (*p == '.') {
      p++;
      if (*p == '*' && n < max) {
        want[n++] = "int";
        p++;
      }
      while (*p >= '0' && *p <= '9')
        p++;
    }
    char len[3] = {0};
    int k = 0;
    while (*p && strchr("hlLqjzt", *p) && k < 2)
      len[k++] = *p++;
    if (!*p || n >= max)
      break;
    want[n++] = printf_ctype(len, *p);
  }
  return n;
}

static bool ctype_matches(const char *want, pki_kind k) {
  return (!strcmp(want, "double") && k == PKI_F64) || (!strcmp(want, "int") && k == PKI_I32) ||
         (!strcmp(want, "unsigned") && k == PKI_U32);
}

static void emit_printf(pkb_ctx *c, const pki_stmt *s) {
  const char *fmt = s->nargs > 0 && s->args[0]->kind == PKI_E_STR ? s->args[0]->str : "";
  fmt = fmt ? fmt : "";
  int max = 2; /* a conversion takes at most 2 '%'-counted slots ('*' width/precision) */
  for (const char *p = fmt; *p; p++)
    max += *p == '%' || *p == '*';
  const char **want = pki_alloc(c->m->arena, sizeof *want * (size_t)max);
  int nw = printf_types(fmt, want, max);
  pkb_begin(c->b, "%s(", c->fn && c->fn->is_main ? "printf" : "PKC_PRINTF");
  for (int i = 0; i < s->nargs; i++) {
    if (i)
      pkb_put(c->b, ", ");
    const pki_expr *a = s->args[i];
    const char *w = i >= 1 && i - 1 < nw ? want[i - 1] : NULL;
    if (w && a->kind != PKI_E_STR && !ctype_matches(w, a->type.kind)) {
      pkb_putf(c->b, "static_cast<%s>(", w);
      expr(c, a);
      pkb_put(c->b, ")");
    } else
      expr(c, a);
  }
  pkb_put(c->b, ");\n");
}

/* ------------------------------------------------------------ statements */

static void emit_return(pkb_ctx *c, const pki_stmt *s) {
  if (!s->value) {
    pkb_line(c->b, "return;");
    return;
  }
  pkb_begin(c->b, "return ");
  value(c, s->value);
  pkb_put(c->b, ";\n");
}

static void emit_expr_stmt(pkb_ctx *c, const pki_stmt *s) {
  if (!s->value || s->value->kind == PKI_E_STR) /* docstring */
    return;
  bool call = s->value->kind == PKI_E_CALL || s->value->kind == PKI_E_INTRINSIC;
  pkb_begin(c->b, "%s", call ? "" : "(void)(");
  expr(c, s->value);
  pkb_put(c->b, call ? ";\n" : ");\n");
}

void pkb_emit_stmt(pkb_ctx *c, const pki_stmt *s) {
  if (s->kind == PKI_S_EXPR && (!s->value || s->value->kind == PKI_E_STR))
    return;
  if (pkb_emit_fused(c, s))
    return;
  pkb_line_directive(c, s);
  if ((s->kind == PKI_S_EXPR || s->kind == PKI_S_DECL || s->kind == PKI_S_ASSIGN) &&
      pkb_emit_atomic_once(c, s))
    return;
  switch (s->kind) {
  case PKI_S_DECL: emit_decl(c, s); break;
  case PKI_S_ASSIGN:
    if (s->value && s->value->kind == PKI_E_INTRINSIC && s->value->ival &&
        s->value->intrinsic >= PKI_INTRINSIC_BINSORT_COUNT &&
        s->value->intrinsic <= PKI_INTRINSIC_BINSORT_PERMUTE) {
      /* self.x = sorter.get_bin_count(): a checked copy into the member */
      pkb_begin(c->b, "pkc::copy_bin_sort_result(");
      expr(c, s->target);
      pkb_put(c->b, ", ");
      expr(c, s->value);
      pkb_putf(c->b, ", \"%s\", \"%s\");\n", s->target->var->name,
               pki_intrinsics[s->value->intrinsic].py_name + 2);
      break;
    }
    if (dead_store(c, s))
      break; /* a local nothing reads (nvcc: "set but never used") */
    if (s->target && s->target->type.kind == PKI_ARRAY && s->value &&
        s->value->kind == PKI_E_LIST) { /* a C array from a list literal: element-wise */
      for (int k = 0; k < s->value->nargs; k++) {
        pkb_begin(c->b, "%s", "");
        expr(c, s->target);
        pkb_putf(c->b, "[%d] = ", k);
        value(c, s->value->args[k]);
        pkb_put(c->b, ";\n");
      }
      break;
    }
    pkb_begin(c->b, "%s", "");
    target(c, s->target);
    pkb_put(c->b, " = ");
    value(c, s->value);
    pkb_put(c->b, ";\n");
    break;
  case PKI_S_AUGASSIGN: emit_augassign(c, s); break;
  case PKI_S_IF: emit_if(c, s, false); break;
  case PKI_S_FOR: emit_for(c, s); break;
  case PKI_S_WHILE:
    pkb_begin(c->b, "while (");
    expr(c, s->cond);
    pkb_put(c->b, ")");
    open_block(c);
    pkb_emit_block(c, &s->body);
    close_block(c, "");
    break;
  case PKI_S_BREAK: pkb_line(c->b, "break;"); break;
  case PKI_S_CONTINUE: pkb_line(c->b, "continue;"); break;
  case PKI_S_RETURN: emit_return(c, s); break;
  case PKI_S_EXPR: emit_expr_stmt(c, s); break;
  case PKI_S_PRINTF: emit_printf(c, s); break;
  case PKI_S_ASSERT: pkb_emit_assert(c, s); break;
  case PKI_S_NESTED: pkb_emit_nested(c, s); break;
  case PKI_S_SINGLE: pkb_emit_single(c, s); break;
  case PKI_S_DISPATCH: pkb_emit_dispatch(c, s); break;
  }
}

void pkb_emit_block(pkb_ctx *c, const pki_block *blk) {
  for (int i = 0; i < blk->n; i++)
    pkb_emit_stmt(c, blk->stmts[i]);
}
