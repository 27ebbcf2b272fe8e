/*
 * print.c - pki_print: pkc's stable text form of the IR (`pkc ir`).
 *
 * One declaration or statement per line, indented by 2 per level, with its
 * span as @line:col. Expressions print inline as S-expressions that show
 * every computed type: (+:float64 a (index:float64 B i)); casts print as
 * cast<float64>(x); variables and literals print bare (their types are on
 * their declarations, literal types are fixed). Works on unchecked IR too.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static void put_kind(FILE *o, pki_kind k) { fputs(pki_kind_name(k), o); }

static void put_type(FILE *o, pki_type t) {
  switch (t.kind) {
  case PKI_VIEW: break;
  case PKI_CLASS: fputs(t.cls ? t.cls->name : "classtype", o); return;
  case PKI_ARRAY: fprintf(o, "List[%s; %d]", pki_kind_name(t.elem), t.length); return;
  case PKI_POOL: fprintf(o, "Random_XorShift%d_Pool", t.rank); return;
  case PKI_RAND_STATE: fprintf(o, "Random_XorShift%d", t.rank); return;
  default: put_kind(o, t.kind); return;
  }
  fprintf(o, "%sView%dD[%s", t.space == PKI_SPACE_SCRATCH ? "Scratch" : "", t.rank,
          pki_kind_name(t.elem));
  if (t.layout == PKI_LAYOUT_RIGHT)
    fputs(", LayoutRight", o);
  else if (t.layout == PKI_LAYOUT_LEFT)
    fputs(", LayoutLeft", o);
  else if (t.layout == PKI_LAYOUT_STRIDE)
    fputs(", LayoutStride", o);
  if (t.space == PKI_SPACE_HOST)
    fputs(", HostSpace", o);
  static const char *const traits[] = {"Atomic", "RandomAccess", "Restrict", "Unmanaged"};
  for (int i = 0; i < 4; i++)
    if (t.traits & (1u << i))
      fprintf(o, ", %s", traits[i]);
  fputc(']', o);
}

static void put_span(FILE *o, pki_span s) { fprintf(o, " @%u:%u", s.line, s.col); }

static void indent(FILE *o, int level) {
  for (int i = 0; i < level; i++)
    fputs("  ", o);
}

static void put_str(FILE *o, const char *s) {
  fputc('"', o);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    switch (*p) {
    case '\n': fputs("\\n", o); break;
    case '\t': fputs("\\t", o); break;
    case '\r': fputs("\\r", o); break;
    case '"': fputs("\\\"", o); break;
    case '\\': fputs("\\\\", o); break;
    default:
      if (*p < 0x20 || *p == 0x7f)
        fprintf(o, "\\x%02x", *p);
      else
        fputc(*p, o);
    }
  }
  fputc('"', o);
}

static void put_float(FILE *o, double v) {
  if (isnan(v)) {
    fputs("nan", o);
    return;
  }
  if (isinf(v)) {
    fputs(v < 0 ? "-inf" : "inf", o);
    return;
  }
  char buf[64]; /* shortest text that reads back as v, like Python's repr */
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  fputs(buf, o);
  if (!strpbrk(buf, ".e"))
    fputs(".0", o);
}

static const char *op_name(pki_op op) {
  static const char *const s[PKI_OP_COUNT] = {
      [PKI_OP_ADD] = "+",     [PKI_OP_SUB] = "-",       [PKI_OP_MUL] = "*",
      [PKI_OP_DIV] = "/",     [PKI_OP_FLOORDIV] = "//", [PKI_OP_MOD] = "%",
      [PKI_OP_POW] = "**",    [PKI_OP_BITAND] = "&",    [PKI_OP_BITOR] = "|",
      [PKI_OP_BITXOR] = "^",  [PKI_OP_SHL] = "<<",      [PKI_OP_SHR] = ">>",
      [PKI_OP_LT] = "<",      [PKI_OP_LE] = "<=",       [PKI_OP_GT] = ">",
      [PKI_OP_GE] = ">=",     [PKI_OP_EQ] = "==",       [PKI_OP_NE] = "!=",
      [PKI_OP_AND] = "and",   [PKI_OP_OR] = "or",       [PKI_OP_NEG] = "neg",
      [PKI_OP_POS] = "pos",   [PKI_OP_NOT] = "not",     [PKI_OP_INVERT] = "invert"};
  return (unsigned)op < PKI_OP_COUNT && s[op] ? s[op] : "?";
}

static void put_expr(FILE *o, const pki_expr *e);

/* (head:type args...) */
static void put_node(FILE *o, const char *head, const pki_expr *e, int from) {
  fprintf(o, "(%s:", head);
  put_type(o, e->type);
  for (int i = from; i < e->nargs; i++) {
    fputc(' ', o);
    put_expr(o, e->args[i]);
  }
  fputc(')', o);
}

static void put_expr(FILE *o, const pki_expr *e) {
  if (!e) {
    fputs("<null>", o);
    return;
  }
  switch (e->kind) {
  case PKI_E_INT: fprintf(o, "%lld", (long long)e->ival); break;
  case PKI_E_FLOAT:
    if (e->str || e->cname)
      fputs(e->str ? e->str : e->cname, o);
    else
      put_float(o, e->fval);
    break;
  case PKI_E_BOOL: fputs(e->ival ? "True" : "False", o); break;
  case PKI_E_STR: put_str(o, e->str); break;
  case PKI_E_VAR: fputs(e->var ? e->var->name : "<unresolved>", o); break;
  case PKI_E_UNARY: case PKI_E_BINARY: case PKI_E_COMPARE: case PKI_E_LOGICAL:
    put_node(o, op_name(e->op), e, 0);
    break;
  case PKI_E_COND: put_node(o, "if", e, 0); break;
  case PKI_E_CAST:
    fputs("cast<", o);
    put_type(o, e->type);
    fputs(">(", o);
    put_expr(o, e->nargs > 0 ? e->args[0] : NULL);
    fputc(')', o);
    break;
  case PKI_E_INDEX: put_node(o, "index", e, 0); break;
  case PKI_E_EXTENT:
    fputs("(extent:", o);
    put_type(o, e->type);
    fputc(' ', o);
    put_expr(o, e->nargs > 0 ? e->args[0] : NULL);
    fprintf(o, " %lld)", (long long)e->ival);
    break;
  case PKI_E_CALL: {
    fputs("(call ", o);
    fputs(e->func ? e->func->name : "<unresolved>", o);
    fputc(':', o);
    put_type(o, e->type);
    for (int i = 0; i < e->nargs; i++) {
      fputc(' ', o);
      put_expr(o, e->args[i]);
    }
    fputc(')', o);
    break;
  }
  case PKI_E_BUILTIN:
    put_node(o, (unsigned)e->builtin < PKI_BUILTIN_COUNT ? pki_builtins[e->builtin].py_name
                                                         : "builtin",
             e, 0);
    break;
  case PKI_E_INTRINSIC:
    put_node(o, (unsigned)e->intrinsic < PKI_INTRINSIC_COUNT
                    ? pki_intrinsics[e->intrinsic].py_name : "intrinsic",
             e, 0);
    break;
  case PKI_E_FIELD:
    fprintf(o, "(field %s:", e->str ? e->str : e->var ? e->var->name : "?");
    put_type(o, e->type);
    fputc(' ', o);
    put_expr(o, e->nargs > 0 ? e->args[0] : NULL);
    fputc(')', o);
    break;
  case PKI_E_CONSTRUCT: put_node(o, "new", e, 0); break;
  case PKI_E_SELF: put_node(o, "self", e, 0); break;
  case PKI_E_LIST: put_node(o, "list", e, 0); break;
  case PKI_E_SLICE:
    if (e->ival == 1) {
      fputc(':', o);
      break;
    }
    fputs("(slice ", o);
    if (e->nargs > 0 && e->args[0])
      put_expr(o, e->args[0]);
    fputc(':', o);
    if (e->nargs > 1 && e->args[1])
      put_expr(o, e->args[1]);
    fputc(')', o);
    break;
  default: fputs("<?>", o); break;
  }
}

static void put_block(FILE *o, const pki_block *b, int level);
static void put_func(FILE *o, const pki_func *f, const pki_entity *e, int level);

static const char *const pattern_fns[] = {"parallel_for", "parallel_reduce", "parallel_scan"};

static void put_args(FILE *o, pki_expr *const *args, int n, int from) {
  for (int i = from; i < n; i++) {
    if (i > from)
      fputs(", ", o);
    put_expr(o, args[i]);
  }
}

/* nested parallel_reduce TeamThreadRange(m, 0, n) -> x */
static void put_par(FILE *o, const pki_stmt *s) {
  static const char *const ranges[] = {"TeamThreadRange", "ThreadVectorRange",
                                       "TeamVectorRange", "TeamThreadMDRange",
                                       "PerTeam", "PerThread"};
  static const char *const policies[] = {"RangePolicy", "MDRangePolicy", "TeamPolicy"};
  const char *r = s->kind == PKI_S_DISPATCH ? policies[(unsigned)s->range % 3]
                                            : ranges[(unsigned)s->range % 6];
  if (s->kind == PKI_S_SINGLE)
    fprintf(o, "single %s(", r);
  else
    fprintf(o, "%s %s %s(", s->kind == PKI_S_NESTED ? "nested" : "dispatch",
            pattern_fns[(unsigned)s->pattern % 3], r);
  put_args(o, s->args, s->nargs, 0);
  fputc(')', o);
  if (s->kind == PKI_S_DISPATCH && s->closure && !s->closure->is_closure)
    fprintf(o, " self.%s", s->closure->name);
  if (s->str) {
    fputs(" label=", o);
    put_str(o, s->str);
  }
  if (s->target) {
    fputs(" -> ", o);
    put_expr(o, s->target);
  }
}

static void put_stmt(FILE *o, const pki_stmt *s, int level) {
  indent(o, level);
  switch (s->kind) {
  case PKI_S_DECL:
    fprintf(o, "decl %s", s->var ? s->var->name : "<null>");
    if (s->var) {
      fputs(": ", o);
      put_type(o, s->var->type);
    }
    if (s->value) {
      fputs(" = ", o);
      put_expr(o, s->value);
    }
    break;
  case PKI_S_ASSIGN: case PKI_S_AUGASSIGN:
    fputs(s->kind == PKI_S_ASSIGN ? "assign " : "augassign ", o);
    put_expr(o, s->target);
    fprintf(o, " %s= ", s->kind == PKI_S_ASSIGN ? "" : op_name(s->op));
    put_expr(o, s->value);
    break;
  case PKI_S_IF: case PKI_S_WHILE:
    fputs(s->kind == PKI_S_IF ? "if " : "while ", o);
    put_expr(o, s->cond);
    break;
  case PKI_S_FOR:
    fprintf(o, "for %s", s->var ? s->var->name : "<null>");
    if (s->var) {
      fputs(": ", o);
      put_type(o, s->var->type);
    }
    fputs(" in range(", o);
    put_expr(o, s->begin);
    fputs(", ", o);
    put_expr(o, s->end);
    fputs(", ", o);
    put_expr(o, s->step);
    fputc(')', o);
    break;
  case PKI_S_BREAK: fputs("break", o); break;
  case PKI_S_CONTINUE: fputs("continue", o); break;
  case PKI_S_RETURN:
    fputs("return", o);
    if (s->value) {
      fputc(' ', o);
      put_expr(o, s->value);
    }
    break;
  case PKI_S_EXPR:
    fputs("expr ", o);
    put_expr(o, s->value);
    break;
  case PKI_S_PRINTF:
    fputs("printf", o);
    for (int i = 0; i < s->nargs; i++) {
      fputc(' ', o);
      put_expr(o, s->args[i]);
    }
    break;
  case PKI_S_ASSERT:
    fputs("assert ", o);
    put_expr(o, s->cond);
    if (s->nargs > 0) {
      fputc(' ', o);
      put_expr(o, s->args[0]);
    }
    break;
  case PKI_S_NESTED: case PKI_S_SINGLE: case PKI_S_DISPATCH: put_par(o, s); break;
  default: fputs("<?>", o); break;
  }
  put_span(o, s->span);
  fputc('\n', o);
  if ((s->kind == PKI_S_NESTED || s->kind == PKI_S_SINGLE || s->kind == PKI_S_DISPATCH) &&
      s->closure && s->closure->is_closure)
    put_func(o, s->closure, NULL, level + 1);
  if (s->kind == PKI_S_IF || s->kind == PKI_S_WHILE || s->kind == PKI_S_FOR)
    put_block(o, &s->body, level + 1);
  if (s->kind == PKI_S_IF && s->orelse.n > 0) {
    indent(o, level);
    fputs("else\n", o);
    put_block(o, &s->orelse, level + 1);
  }
}

static void put_block(FILE *o, const pki_block *b, int level) {
  for (int i = 0; i < b->n; i++)
    if (b->stmts[i])
      put_stmt(o, b->stmts[i], level);
}

static const char *access_str(unsigned a) {
  static const char *const s[4] = {"-", "r", "w", "rw"};
  return s[a & 3];
}

/* "<what> name: type [access]" */
static void put_var(FILE *o, const char *what, const pki_var *v, int level, bool access) {
  if (!v)
    return;
  indent(o, level);
  fprintf(o, "%s %s: ", what, v->name);
  put_type(o, v->type);
  if (access)
    fprintf(o, " %s", access_str(v->access));
  fputc('\n', o);
}

static void put_func(FILE *o, const pki_func *f, const pki_entity *e, int level) {
  static const char *const patterns[] = {"for", "reduce", "scan"};
  static const char *const policies[] = {"range", "mdrange", "team"};
  static const char *const reducers[] = {"sum",    "prod", "min", "max",  "maxloc",
                                         "minloc", "band", "bor", "land", "lor"};
  indent(o, level);
  const char *what = f->is_closure ? "closure" : f->is_main ? "main" : f->is_workunit ? "workunit"
                     : f->is_ctor ? "ctor" : f->is_method ? "method" : "function";
  fprintf(o, "%s %s", what, f->name);
  if (e && (e->kind == PKI_ENT_WORKUNIT || e->kind == PKI_ENT_FUNCTION))
    fprintf(o, " [entity %s]", e->name);
  if (f->is_closure) {
    if (f->pattern == PKI_PATTERN_REDUCE)
      fprintf(o, " pattern=reduce reducer=%s", reducers[f->reducer % 10]);
    else if (f->pattern == PKI_PATTERN_SCAN)
      fputs(" pattern=scan", o);
  } else if (f->is_main) {
  } else if (f->is_workunit) {
    fprintf(o, " pattern=%s policy=%s", patterns[f->pattern % 3], policies[f->policy % 3]);
    if (f->pattern == PKI_PATTERN_REDUCE)
      fprintf(o, " reducer=%s", reducers[f->reducer % 10]);
  } else {
    fputs(" -> ", o);
    put_type(o, f->ret);
  }
  put_span(o, f->span);
  fputc('\n', o);
  for (int i = 0; i < f->nindex; i++)
    put_var(o, "index", f->index[i], level + 1, false);
  put_var(o, "acc", f->acc, level + 1, true);
  put_var(o, "final", f->final, level + 1, false);
  for (int i = 0; i < f->nparams; i++)
    put_var(o, "param", f->params[i], level + 1, true);
  indent(o, level + 1);
  fputs("body:\n", o);
  put_block(o, &f->body, level + 2);
}

void pki_print(const pki_module *m, FILE *out) {
  fprintf(out, "module %s (%s)\n", m->name, m->path);
  for (int i = 0; i < m->nentities; i++) {
    const pki_entity *e = m->entities[i];
    if (!e)
      continue;
    if (e->kind == PKI_ENT_WORKUNIT || e->kind == PKI_ENT_FUNCTION) {
      for (int j = 0; j < e->nfuncs; j++)
        if (e->funcs[j] && !e->funcs[j]->is_closure)
          put_func(out, e->funcs[j], e, 0);
      continue;
    }
    fprintf(out, "%s %s",
            e->kind == PKI_ENT_WORKLOAD ? "workload"
            : e->kind == PKI_ENT_CLASSTYPE ? "classtype" : "functor",
            e->name);
    put_span(out, e->span);
    fputc('\n', out);
    for (int j = 0; j < e->nmembers; j++)
      put_var(out, e->kind == PKI_ENT_CLASSTYPE ? "field" : "member", e->members[j], 1,
              e->kind != PKI_ENT_CLASSTYPE);
    for (int j = 0; j < e->nfuncs; j++)
      if (e->funcs[j] && !e->funcs[j]->is_closure)
        put_func(out, e->funcs[j], e, 1);
  }
}
