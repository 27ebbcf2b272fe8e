/*
 * constants.c - module-level compile-time constants (dialect item 9):
 * top-level `NAME [: T] = <int/float/bool literal, math.pi & co, a math
 * function of constants, or constant arithmetic of earlier constants>`.
 * Every other module-level assignment, a second one after a call (a launch
 * may read the first value), `NAME += ...` and `global NAME` in a function
 * make NAME a non-constant global, which kernels read at each launch.
 */
#include <errno.h>
#include "ents.h"

#include <math.h>
#include <stdlib.h>

struct pkf_ents *pkf_ents_get(pkf_ctx *c) {
  if (!c->ents)
    c->ents = pki_alloc(c->m->arena, sizeof *c->ents);
  return c->ents;
}

static pkf_const *find_const(pkf_ctx *c, const char *name, size_t len) {
  struct pkf_ents *s = pkf_ents_get(c);
  for (int i = s->nconst - 1; i >= 0; i--)
    if (!strncmp(s->consts[i].name, name, len) && !s->consts[i].name[len])
      return &s->consts[i];
  return NULL;
}

static double as_f(const pkf_const *v) {
  return v->kind == PKI_E_FLOAT ? v->fval : v->u64 ? (double)(uint64_t)v->ival : (double)v->ival;
}

static bool eval(pkf_ctx *c, TSNode n, pkf_const *out);

static bool math_attr(pkf_ctx *c, TSNode n, pkf_const *out) {
  TSNode obj = pkf_field(c, n, PKF_F_OBJECT);
  out->kind = PKI_E_FLOAT;
  return (pkf_alias_is(c, obj, PKF_AL_MATH) || pkf_alias_is(c, obj, PKF_AL_NP)) &&
         pkf_math_const(pkf_text(c, pkf_field(c, n, PKF_F_ATTRIBUTE)), &out->fval);
}

/* The math function f names (math.sqrt, np.sqrt, sqrt imported from math),
 * or NULL. */
static const char *math_function(pkf_ctx *c, TSNode f) {
  if (pkf_type_is(c, f, PKF_N_ATTRIBUTE)) {
    TSNode obj = pkf_field(c, f, PKF_F_OBJECT);
    return pkf_alias_is(c, obj, PKF_AL_MATH) || pkf_alias_is(c, obj, PKF_AL_NP)
               ? pkf_text(c, pkf_field(c, f, PKF_F_ATTRIBUTE)) : NULL;
  }
  const pkf_alias *a = pkf_alias_find(c, f);
  return a && a->kind == PKF_AL_MATHNAME ? a->orig : NULL;
}

/* min(k, ...) / max(k, ...): the first of the extreme arguments, of its own
 * kind, as Python returns it. */
static bool const_extreme(pkf_ctx *c, pkf_nodes args, bool max, pkf_const *out) {
  for (uint32_t i = 0; i < args.n; i++) {
    pkf_const k;
    if (!eval(c, args.v[i], &k) || k.kind == PKI_E_BOOL || (k.kind == PKI_E_FLOAT && isnan(k.fval)))
      return false;
    if (i == 0 || (max ? as_f(&k) > as_f(out) : as_f(&k) < as_f(out)))
      *out = k;
  }
  return args.n >= 2;
}

/* math.floor/ceil/trunc and round() of a constant: Python's int result. */
static bool const_to_int(const char *name, const pkf_const *a, pkf_const *out) {
  double v = as_f(a), r = !strcmp(name, "floor") ? floor(v) : !strcmp(name, "ceil") ? ceil(v)
                          : !strcmp(name, "trunc") ? trunc(v) : nearbyint(v); /* half to even */
  out->kind = PKI_E_INT;
  if (a->kind == PKI_E_INT) {
    out->ival = a->ival;
    out->u64 = a->u64;
    return true;
  }
  if (!(fabs(r) < 9.2e18))
    return false;
  out->ival = (int64_t)r;
  return true;
}

/* float(k), int(k) and math functions of constant floats (math.sqrt(2.0),
 * 2 * math.atan(1.0)): evaluated with the C library Python's math module
 * calls, so the value is the one Python computes; float("inf") and the
 * like; abs, min, max and round(), math.floor/ceil/trunc. */
static bool const_call(pkf_ctx *c, TSNode n, pkf_const *out) {
  static const struct { const char *name; double (*f1)(double); double (*f2)(double, double); }
      fns[] = {{"sqrt", sqrt, NULL},   {"exp", exp, NULL},     {"log", log, NULL},
               {"log2", log2, NULL},   {"log10", log10, NULL}, {"sin", sin, NULL},
               {"cos", cos, NULL},     {"tan", tan, NULL},     {"asin", asin, NULL},
               {"acos", acos, NULL},   {"atan", atan, NULL},   {"sinh", sinh, NULL},
               {"cosh", cosh, NULL},   {"tanh", tanh, NULL},   {"cbrt", cbrt, NULL},
               {"fabs", fabs, NULL},   {"atan2", NULL, atan2}, {"hypot", NULL, hypot},
               {"pow", NULL, pow}};
  pkf_nodes args = pkf_named_children(c, pkf_field(c, n, PKF_F_ARGUMENTS));
  TSNode f = pkf_field(c, n, PKF_F_FUNCTION);
  bool builtin = pkf_type_is(c, f, PKF_N_IDENTIFIER) && !pkf_alias_find(c, f);
  if (pkf_special_float(c, n, &out->fval)) {
    out->kind = PKI_E_FLOAT;
    return true;
  }
  if (builtin && (pkf_is(c, f, "min") || pkf_is(c, f, "max")))
    return const_extreme(c, args, pkf_is(c, f, "max"), out);
  pkf_const a[2];
  if (args.n < 1 || args.n > 2)
    return false;
  for (uint32_t i = 0; i < args.n; i++)
    if (!eval(c, args.v[i], &a[i]) || a[i].kind == PKI_E_BOOL)
      return false;
  if (builtin && args.n == 1 && pkf_is(c, f, "abs") && a[0].u64) {
    *out = a[0];
    return true;
  }
  if (builtin && args.n == 1 && pkf_is(c, f, "abs")) {
    *out = a[0];
    out->ival = a[0].ival < 0 ? -a[0].ival : a[0].ival;
    out->fval = fabs(a[0].fval);
    return true;
  }
  if (builtin && args.n == 1 && pkf_is(c, f, "round"))
    return const_to_int("round", &a[0], out);
  const char *name = math_function(c, f);
  bool of_math = !pkf_type_is(c, f, PKF_N_ATTRIBUTE) || /* not numpy's, which give floats */
                 pkf_alias_is(c, pkf_field(c, f, PKF_F_OBJECT), PKF_AL_MATH);
  if (name && of_math && args.n == 1 &&
      (!strcmp(name, "floor") || !strcmp(name, "ceil") || !strcmp(name, "trunc")))
    return const_to_int(name, &a[0], out);
  if (builtin && args.n == 1 && (pkf_is(c, f, "float") || pkf_is(c, f, "int"))) {
    bool to_int = pkf_is(c, f, "int");
    if (to_int && a[0].kind == PKI_E_FLOAT && !(fabs(a[0].fval) < 9.2e18))
      return false;
    out->kind = to_int ? PKI_E_INT : PKI_E_FLOAT;
    out->ival = a[0].kind == PKI_E_INT ? a[0].ival : (int64_t)a[0].fval; /* int() truncates */
    out->u64 = to_int && a[0].kind == PKI_E_INT && a[0].u64;
    out->fval = as_f(&a[0]);
    return true;
  }
  for (size_t i = 0; name && i < sizeof fns / sizeof fns[0]; i++)
    if (!strcmp(fns[i].name, name) && (fns[i].f1 ? args.n == 1 : args.n == 2)) {
      out->kind = PKI_E_FLOAT;
      out->fval = fns[i].f1 ? fns[i].f1(as_f(&a[0])) : fns[i].f2(as_f(&a[0]), as_f(&a[1]));
      return isfinite(out->fval); /* math.sqrt(-1.0) raises in Python: no constant */
    }
  return false;
}

/* Evaluates a constant expression; false if it is not one. */
static bool eval(pkf_ctx *c, TSNode n, pkf_const *out) {
  pkf_ntype t = pkf_ntype_of(c, n);
  out->u64 = false;
  if (t == PKF_N_INTEGER) {
    char *end;
    const char *s = pkf_text(c, n);
    out->kind = PKI_E_INT;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    out->ival = (int64_t)v;
    out->u64 = v > (unsigned long long)INT64_MAX;
    /* beyond 64 bits: not a constant (a global, which a launch refuses) */
    return *end == 0 && !strchr(s, '_') && errno != ERANGE && s[0] != '-';
  }
  if (t == PKF_N_FLOAT) {
    char *end;
    out->kind = PKI_E_FLOAT;
    out->fval = strtod(pkf_text(c, n), &end);
    return *end == 0;
  }
  if (t == PKF_N_TRUE || t == PKF_N_FALSE) {
    out->kind = PKI_E_BOOL;
    out->ival = t == PKF_N_TRUE;
    return true;
  }
  if (t == PKF_N_IDENTIFIER) {
    const pkf_const *k = find_const(c, c->src + ts_node_start_byte(n),
                                    ts_node_end_byte(n) - ts_node_start_byte(n));
    if (k) {
      *out = *k;
      return true;
    }
    const pkf_alias *a = pkf_alias_find(c, n); /* pi imported from math */
    out->kind = PKI_E_FLOAT;
    return a && a->kind == PKF_AL_MATHNAME && pkf_math_const(a->orig, &out->fval);
  }
  if (t == PKF_N_ATTRIBUTE) /* math.pi, np.pi, ... */
    return math_attr(c, n, out);
  if (t == PKF_N_CALL)
    return const_call(c, n, out);
  if (t == PKF_N_PARENTHESIZED_EXPRESSION)
    return pkf_named_child_count(c, n) == 1 && eval(c, pkf_named_child(c, n, 0), out);
  if (t == PKF_N_UNARY_OPERATOR) {
    if (!eval(c, pkf_field(c, n, PKF_F_ARGUMENT), out) || out->kind == PKI_E_BOOL)
      return false;
    const char *op = pkf_text(c, pkf_field(c, n, PKF_F_OPERATOR));
    if (!strcmp(op, "-")) {
      if (out->kind == PKI_E_INT && (out->u64 || out->ival == INT64_MIN))
        return false; /* -(2**63) and below: beyond int64 */
      out->ival = -out->ival;
      out->fval = -out->fval;
    }
    return op[0] == '-' || op[0] == '+';
  }
  if (t == PKF_N_BINARY_OPERATOR) {
    pkf_const a, b;
    if (!eval(c, pkf_field(c, n, PKF_F_LEFT), &a) || !eval(c, pkf_field(c, n, PKF_F_RIGHT), &b) ||
        a.kind == PKI_E_BOOL || b.kind == PKI_E_BOOL)
      return false;
    const char *op = pkf_text(c, pkf_field(c, n, PKF_F_OPERATOR));
    bool ints = a.kind == PKI_E_INT && b.kind == PKI_E_INT;
    out->kind = ints ? PKI_E_INT : PKI_E_FLOAT;
    if (!strcmp(op, "/")) {
      out->kind = PKI_E_FLOAT;
      if (as_f(&b) == 0)
        return false;
      out->fval = as_f(&a) / as_f(&b);
      return true;
    }
    if (ints && !strcmp(op, "**") && b.ival < 0 && !a.u64 && !b.u64) {
      if (a.ival == 0)
        return false; /* Python: ZeroDivisionError */
      out->kind = PKI_E_FLOAT; /* 2 ** -1 == 0.5: an int to a negative power is a float */
      out->fval = pow((double)a.ival, (double)b.ival);
      return true;
    }
    if (ints) {
      /* Python's ints do not wrap: a result beyond int64 is no constant
       * (the name becomes a global, which a launch refuses by name) */
      if (a.u64 || b.u64)
        return false;
      int64_t x = a.ival, y = b.ival, r = 0;
      bool over = false;
      if (!strcmp(op, "+")) over = __builtin_add_overflow(x, y, &r);
      else if (!strcmp(op, "-")) over = __builtin_sub_overflow(x, y, &r);
      else if (!strcmp(op, "*")) over = __builtin_mul_overflow(x, y, &r);
      else if (!strcmp(op, "//") && y && !(x == INT64_MIN && y == -1))
        r = x / y - ((x % y != 0) && ((x < 0) != (y < 0)));
      else if (!strcmp(op, "%") && y && y != -1) r = ((x % y) + y) % y;
      else if (!strcmp(op, "%") && y == -1) r = 0;
      else if (!strcmp(op, "**") && y >= 0) {
        r = 1; /* 0, 1 and -1 never overflow; others do within 64 steps */
        for (int64_t k = 0; k < y && !over; k++) {
          over = __builtin_mul_overflow(r, x, &r);
          if (x == 0 || x == 1 || (x == -1 && k > 0)) {
            r = x == -1 ? ((y & 1) ? -1 : 1) : x;
            break;
          }
        }
      } else if (!strcmp(op, "<<") && y >= 0 && y < 63 && x >= 0 && x <= (INT64_MAX >> y))
        r = x << y;
      else if (!strcmp(op, ">>") && y >= 0) r = y < 64 ? x >> y : (x < 0 ? -1 : 0);
      else return false;
      out->ival = r;
      return !over;
    }
    double x = as_f(&a), y = as_f(&b);
    if (!strcmp(op, "+")) out->fval = x + y;
    else if (!strcmp(op, "-")) out->fval = x - y;
    else if (!strcmp(op, "*")) out->fval = x * y;
    else if (!strcmp(op, "**")) out->fval = pow(x, y);
    else return false;
    return true;
  }
  return false;
}

static void add_global(pkf_ctx *c, const char *name) {
  struct pkf_ents *s = pkf_ents_get(c);
  s->globals = pki_grow(c->m->arena, s->globals, s->nglob, &s->capglob, sizeof *s->globals);
  s->globals[s->nglob++] = name;
}

static void drop_const(pkf_ctx *c, const char *name) {
  pkf_const *k = find_const(c, name, strlen(name));
  if (k)
    k->name = ""; /* a later non-constant assignment: no longer a constant */
}

static bool is_global(pkf_ctx *c, const char *name) {
  struct pkf_ents *s = pkf_ents_get(c);
  for (int i = 0; i < s->nglob; i++)
    if (!strcmp(s->globals[i], name))
      return true;
  return false;
}

/* NAME [: ann] = a value: a constant when ok (k holds it) and NAME is bound
 * nowhere else, else a global (read by kernels at each launch, as Python
 * reads it: a name rebound after the first assignment is not a constant). */
static void bind_value(pkf_ctx *c, const char *name, bool ok, pkf_const k, TSNode ann) {
  struct pkf_ents *s = pkf_ents_get(c);
  k.name = name;
  k.calls_at = s->call_stmts;
  pkf_const *prev = find_const(c, name, strlen(name));
  if (ok && (is_global(c, name) || (prev && prev->calls_at != s->call_stmts)))
    ok = false; /* bound again after a call that may launch a kernel reading it */
  else if (ok && prev)
    prev->name = ""; /* `A, B = 1, 2; A, B = B, A`: no launch between, the last wins */
  if (ok) {
    TSNode an = ts_node_is_null(ann) ? ann : pkf_unwrap_type(c, ann);
    if (!ts_node_is_null(an) && pkf_is(c, an, "float") && k.kind == PKI_E_INT)
      k.kind = PKI_E_FLOAT, k.fval = (double)k.ival;
    else if (!ts_node_is_null(an) && pkf_is(c, an, "int") && k.kind == PKI_E_FLOAT)
      return add_global(c, name);
    s->consts = pki_grow(c->m->arena, s->consts, s->nconst, &s->capconst, sizeof *s->consts);
    s->consts[s->nconst++] = k;
    return;
  }
  drop_const(c, name);
  if (!is_global(c, name))
    add_global(c, name);
}

static bool is_tuple(pkf_ctx *c, TSNode n) {
  return pkf_type_is(c, n, PKF_N_PATTERN_LIST) || pkf_type_is(c, n, PKF_N_TUPLE_PATTERN) ||
         pkf_type_is(c, n, PKF_N_EXPRESSION_LIST) || pkf_type_is(c, n, PKF_N_TUPLE);
}

/* Every name a target binds becomes a global (not those of a.x or a[i]). */
static void all_globals(pkf_ctx *c, TSNode left) {
  if (pkf_type_is(c, left, PKF_N_IDENTIFIER)) {
    bind_value(c, pkf_text(c, left), false, (pkf_const){0}, (TSNode){0});
    return;
  }
  if (!is_tuple(c, left) && !pkf_type_is(c, left, PKF_N_LIST_PATTERN) &&
      !pkf_type_is(c, left, PKF_N_LIST_SPLAT_PATTERN))
    return;
  pkf_nodes l = pkf_children(c, left);
  for (uint32_t i = 0; i < l.n; i++)
    all_globals(c, l.v[i]);
}

/* The (name, value) pairs of `A, (B, C) = 0, (1, 2)` into n/v (room for
 * cap); false if the shapes differ or there are more than cap. */
static bool pairs(pkf_ctx *c, TSNode left, TSNode right, TSNode *n, TSNode *v, uint32_t *k,
                  uint32_t cap) {
  if (pkf_type_is(c, left, PKF_N_IDENTIFIER)) {
    if (*k == cap)
      return false;
    n[*k] = left, v[(*k)++] = right;
    return true;
  }
  if (!is_tuple(c, left) || !is_tuple(c, right))
    return false;
  pkf_nodes l = pkf_children(c, left), r = pkf_children(c, right);
  bool ok = l.n == r.n;
  for (uint32_t i = 0; ok && i < l.n; i++)
    ok = pairs(c, l.v[i], r.v[i], n, v, k, cap);
  return ok;
}

/* The names a target binds. */
static uint32_t leaves(pkf_ctx *c, TSNode left) {
  if (!is_tuple(c, left))
    return 1;
  pkf_nodes l = pkf_children(c, left);
  uint32_t k = 0;
  for (uint32_t i = 0; i < l.n; i++)
    k += leaves(c, l.v[i]);
  return k;
}

/* `A, B = 0, 1` at the top level binds each name to its value, all values
 * evaluated before any name is bound (as Python does); any other unpacking
 * makes its names globals. */
static void unpack(pkf_ctx *c, TSNode left, TSNode right, bool top) {
  uint32_t cap = leaves(c, left), m = 0;
  TSNode *n = pki_alloc(c->m->arena, sizeof *n * cap), *v = pki_alloc(c->m->arena, sizeof *v * cap);
  pkf_const *k = pki_alloc(c->m->arena, sizeof *k * cap);
  bool *ok = pki_alloc(c->m->arena, sizeof *ok * cap);
  if (!top || !pairs(c, left, right, n, v, &m, cap))
    return all_globals(c, left);
  for (uint32_t i = 0; i < m; i++)
    ok[i] = eval(c, v[i], &k[i]);
  for (uint32_t i = 0; i < m; i++)
    bind_value(c, pkf_text(c, n[i]), ok[i], k[i], (TSNode){0});
}

static void assignment(pkf_ctx *c, TSNode a, bool top) {
  TSNode left = pkf_field(c, a, PKF_F_LEFT), right = pkf_field(c, a, PKF_F_RIGHT);
  if (ts_node_is_null(right))
    return;
  if (is_tuple(c, left))
    return unpack(c, left, right, top);
  if (!pkf_type_is(c, left, PKF_N_IDENTIFIER))
    return;
  pkf_const k = {0};
  bool ok = top && !pkf_type_is(c, right, PKF_N_ASSIGNMENT) && eval(c, right, &k);
  bind_value(c, pkf_text(c, left), ok, k, pkf_field(c, a, PKF_F_TYPE));
}

/* Does n call anything (outside the defs and classes it holds, which do not
 * run where they are defined)? */
static bool has_call(pkf_ctx *c, TSNode n, int depth) {
  if (depth > 200 || pkf_type_is(c, n, PKF_N_FUNCTION_DEFINITION) ||
      pkf_type_is(c, n, PKF_N_CLASS_DEFINITION) || pkf_type_is(c, n, PKF_N_DECORATED_DEFINITION))
    return false;
  if (pkf_type_is(c, n, PKF_N_CALL))
    return true;
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++)
    if (has_call(c, kids.v[i], depth + 1))
      return true;
  return false;
}

/* Module-level statements, and those of top-level if/for/while/with/try blocks
 * (their names are globals too, never constants). */
static void scan(pkf_ctx *c, TSNode block, bool top) {
  pkf_nodes st = pkf_children(c, block);
  for (uint32_t i = 0; i < st.n; i++) {
    TSNode s = st.v[i];
    if (top && has_call(c, s, 0))
      pkf_ents_get(c)->call_stmts++; /* before its own bindings: `X = f()` is no constant */
    if (pkf_type_is(c, s, PKF_N_EXPRESSION_STATEMENT)) {
      TSNode a = pkf_named_child(c, s, 0);
      if (pkf_type_is(c, a, PKF_N_ASSIGNMENT))
        assignment(c, a, top);
      else if (pkf_type_is(c, a, PKF_N_AUGMENTED_ASSIGNMENT) &&
               pkf_type_is(c, pkf_field(c, a, PKF_F_LEFT), PKF_N_IDENTIFIER))
        bind_value(c, pkf_text(c, pkf_field(c, a, PKF_F_LEFT)), false, (pkf_const){0},
                   (TSNode){0}); /* N += 1: N changes */
    } else if (pkf_type_is(c, s, PKF_N_IF_STATEMENT) || pkf_type_is(c, s, PKF_N_FOR_STATEMENT) ||
               pkf_type_is(c, s, PKF_N_WHILE_STATEMENT) ||
               pkf_type_is(c, s, PKF_N_WITH_STATEMENT) || pkf_type_is(c, s, PKF_N_TRY_STATEMENT) ||
               pkf_type_is(c, s, PKF_N_ELIF_CLAUSE) || pkf_type_is(c, s, PKF_N_ELSE_CLAUSE) ||
               pkf_type_is(c, s, PKF_N_BLOCK)) {
      pkf_nodes ch = pkf_children(c, s);
      for (uint32_t j = 0; j < ch.n; j++)
        if (pkf_type_is(c, ch.v[j], PKF_N_BLOCK) || pkf_type_is(c, ch.v[j], PKF_N_ELIF_CLAUSE) ||
            pkf_type_is(c, ch.v[j], PKF_N_ELSE_CLAUSE))
          scan(c, ch.v[j], false);
    }
  }
}

/* `global N` in any function: N may change when it runs, so no constant. */
static void declared_global(pkf_ctx *c, TSNode n, int depth) {
  if (depth > 200)
    return;
  if (pkf_type_is(c, n, PKF_N_GLOBAL_STATEMENT)) {
    pkf_nodes names = pkf_named_children(c, n);
    for (uint32_t i = 0; i < names.n; i++)
      if (pkf_type_is(c, names.v[i], PKF_N_IDENTIFIER))
        bind_value(c, pkf_text(c, names.v[i]), false, (pkf_const){0}, (TSNode){0});
    return;
  }
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++)
    declared_global(c, kids.v[i], depth + 1);
}

void pkf_constants_collect(pkf_ctx *c, TSNode root) {
  pkf_ents_get(c);
  scan(c, root, true);
  uint32_t end = ts_node_end_byte(root);
  for (uint32_t i = 0; i + 6 <= end; i++) /* a text scan first: most files have none */
    if (!memcmp(c->src + i, "global", 6)) {
      declared_global(c, root, 0);
      break;
    }
}

pki_expr *pkf_constant_lookup(pkf_ctx *c, TSNode name) {
  if (!c->ents || !pkf_type_is(c, name, PKF_N_IDENTIFIER))
    return NULL;
  uint32_t s = ts_node_start_byte(name);
  const pkf_const *k = find_const(c, c->src + s, ts_node_end_byte(name) - s);
  if (!k)
    return NULL;
  pki_expr *e = pki_new_expr(c->m, k->kind, pkf_span(name));
  e->ival = k->ival;
  e->fval = k->fval;
  e->unsigned_lit = k->kind == PKI_E_INT && k->u64;
  e->cname = k->name;
  return e;
}

pki_expr *pkf_global_capture(pkf_ctx *c, TSNode name, bool *handled) {
  *handled = false;
  if (!c->ents || !pkf_type_is(c, name, PKF_N_IDENTIFIER) || !c->fn || !c->ent)
    return NULL;
  const char *t = pkf_text(c, name);
  if (!is_global(c, t))
    return NULL;
  *handled = true;
  pki_func *root = pki_root_func(c->fn);
  pki_entity *e = c->ent;
  bool members = e->kind == PKI_ENT_FUNCTOR || e->kind == PKI_ENT_WORKLOAD;
  if (!members && !(e->kind == PKI_ENT_WORKUNIT && root && root->is_workunit)) {
    pki_error(c->d, pkf_span(name), "non-constant-global",
              "global '%s' is not a compile-time constant; a @pk.function cannot read it "
              "at run time: pass it as an argument", t);
    return NULL;
  }
  pki_var **vs = members ? e->members : root->params;
  int n = members ? e->nmembers : root->nparams;
  pki_var *v = NULL;
  for (int i = 0; i < n && !v; i++)
    if (vs[i]->from_global && !strcmp(vs[i]->name, t))
      v = vs[i];
  if (!v) {
    pki_type ty;
    if (!pkf_infer_global(c, t, &ty)) {
      pki_error(c->d, pkf_span(name), "non-constant-global",
                "global '%s' is not a compile-time constant and its assignments do not "
                "give it one type; pass it as a kernel argument", t);
      return NULL;
    }
    v = pki_new_var(c->m, t, members ? PKI_VAR_MEMBER : PKI_VAR_PARAM, ty, pkf_span(name));
    v->annotated = true;
    v->from_global = true;
    if (members)
      pki_entity_add_member(c->m, e, v);
    else
      pki_func_add_param(c->m, root, v);
  }
  pki_expr *x = pki_new_expr(c->m, PKI_E_VAR, pkf_span(name));
  x->var = v;
  return x;
}

bool pkf_global_error(pkf_ctx *c, TSNode name) {
  if (!c->ents || !pkf_type_is(c, name, PKF_N_IDENTIFIER))
    return false;
  const char *t = pkf_text(c, name);
  if (!is_global(c, t))
    return false;
  pki_error(c->d, pkf_span(name), "non-constant-global",
            "global '%s' is not a compile-time constant; pass it as a kernel argument", t);
  return true;
}
