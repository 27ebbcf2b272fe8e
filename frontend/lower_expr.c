/*
 * lower_expr.c - Python expressions to pki_expr: literals, names, View
 * indexing, operators (chained comparisons become ANDs of COMPAREs), calls
 * to builtins, math functions, casts, extents and device functions.
 * Expressions stay untyped (pki_check types them) except casts.
 */
#include "fe.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

static pki_expr *unsupported(pkf_ctx *c, TSNode n, const char *what) {
  pki_error(c->d, pkf_span(n), "unsupported-expression", "%s", what);
  return NULL;
}

/* -------------------------------------------------------------- literals */

static pki_expr *int_literal(pkf_ctx *c, TSNode n, bool negate) {
  const char *t = pkf_text(c, n);
  size_t len = strlen(t);
  if (len && (t[len - 1] == 'j' || t[len - 1] == 'J'))
    return unsupported(c, n, "complex numbers are not supported in kernels");
  int base = 10;
  const char *p = t;
  if (p[0] == '0' && p[1] && strchr("xXoObB", p[1])) {
    base = (p[1] == 'x' || p[1] == 'X') ? 16 : (p[1] == 'o' || p[1] == 'O') ? 8 : 2;
    p += 2;
  }
  uint64_t v = 0;
  bool over = false;
  for (; *p; p++) {
    if (*p == '_')
      continue;
    int dg = (*p >= '0' && *p <= '9') ? *p - '0'
             : (*p >= 'a' && *p <= 'f') ? *p - 'a' + 10
             : (*p >= 'A' && *p <= 'F') ? *p - 'A' + 10 : 99;
    if (dg >= base)
      return unsupported(c, n, "malformed integer literal");
    if (v > (UINT64_MAX - (uint64_t)dg) / (uint64_t)base)
      over = true;
    v = v * (uint64_t)base + (uint64_t)dg;
  }
  uint64_t lim = negate ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  if (over || (negate && v > lim)) {
    pki_error(c->d, pkf_span(n), "int-overflow",
              "integer literal %s%s does not fit in 64 bits (kernels compute with int64, "
              "or uint64 for a literal up to 2**64 - 1); write it as a float if a float "
              "is meant",
              negate ? "-" : "", t);
    return NULL;
  }
  pki_expr *e = pki_new_expr(c->m, PKI_E_INT, pkf_span(n));
  e->ival = negate ? (int64_t)(0 - v) : (int64_t)v;
  e->unsigned_lit = v > lim; /* 0xff51afd7ed558ccd: uint64 */
  return e;
}

static pki_expr *float_literal(pkf_ctx *c, TSNode n) {
  const char *t = pkf_text(c, n);
  size_t len = strlen(t);
  if (len && (t[len - 1] == 'j' || t[len - 1] == 'J'))
    return unsupported(c, n, "complex numbers are not supported in kernels");
  char *buf = pki_alloc(c->m->arena, len + 1), *q = buf;
  for (const char *p = t; *p; p++)
    if (*p != '_')
      *q++ = *p;
  pki_expr *e = pki_new_expr(c->m, PKI_E_FLOAT, pkf_span(n));
  e->fval = strtod(buf, NULL);
  return e;
}

bool pkf_math_const(const char *name, double *v) {
  static const struct { const char *n; double v; } k[] = {
      {"pi", 3.14159265358979323846}, {"e", 2.71828182845904523536},
      {"tau", 6.28318530717958647692}, {"inf", INFINITY}, {"nan", NAN}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (strcmp(k[i].n, name) == 0) {
      *v = k[i].v;
      return true;
    }
  return false;
}

bool pkf_special_float(pkf_ctx *c, TSNode call, double *v) {
  TSNode f = pkf_field(c, call, PKF_F_FUNCTION);
  pkf_nodes args = pkf_named_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  if (!pkf_type_is(c, f, PKF_N_IDENTIFIER) || !pkf_is(c, f, "float") || pkf_alias_find(c, f) ||
      args.n != 1 || !pkf_type_is(c, args.v[0], PKF_N_STRING))
    return false;
  const char *s = pkf_text(c, args.v[0]);
  while (*s == 'r' || *s == 'R' || *s == 'u' || *s == 'U')
    s++;
  char q = *s;
  if (q != '\'' && q != '"')
    return false;
  size_t n = strlen(s), quotes = n >= 6 && s[1] == q && s[2] == q ? 3 : 1;
  if (n < 2 * quotes)
    return false;
  char body[32];
  size_t len = n - 2 * quotes;
  const char *b = s + quotes;
  while (len && isspace((unsigned char)*b))
    b++, len--;
  while (len && isspace((unsigned char)b[len - 1]))
    len--;
  if (len >= sizeof body)
    return false;
  memcpy(body, b, len);
  body[len] = 0;
  const char *w = body + (body[0] == '+' || body[0] == '-');
  if (strcasecmp(w, "inf") && strcasecmp(w, "infinity") && strcasecmp(w, "nan"))
    return false;
  *v = tolower((unsigned char)w[0]) == 'n' ? NAN : INFINITY;
  if (body[0] == '-')
    *v = -*v;
  return true;
}

static pki_expr *const_expr(pkf_ctx *c, TSNode at, const char *name) {
  pki_expr *e = pki_new_expr(c->m, PKI_E_FLOAT, pkf_span(at));
  pkf_math_const(name, &e->fval);
  e->str = name;
  return e;
}

/* ----------------------------------------------------------------- names */

const char *pkf_imported_from(pkf_ctx *c, const char *name) {
  pkf_nodes top = ts_node_is_null(c->root) ? (pkf_nodes){0} : pkf_children(c, c->root);
  for (uint32_t i = 0; i < top.n; i++) {
    if (!pkf_type_is(c, top.v[i], PKF_N_IMPORT_FROM_STATEMENT))
      continue;
    TSNode mod = pkf_field(c, top.v[i], PKF_F_MODULE_NAME);
    pkf_nodes ns = pkf_children(c, top.v[i]);
    for (uint32_t k = 0; k < ns.n; k++) {
      TSNode x = ns.v[k];
      if (ts_node_eq(x, mod))
        continue;
      if (pkf_type_is(c, x, PKF_N_ALIASED_IMPORT))
        x = pkf_field(c, x, PKF_F_ALIAS);
      if (pkf_is(c, x, name))
        return pkf_text(c, mod);
    }
  }
  return NULL;
}

/* The module that `import m` / `import m as name` binds to name, else NULL. */
static const char *imported_module(pkf_ctx *c, const char *name) {
  pkf_nodes top = ts_node_is_null(c->root) ? (pkf_nodes){0} : pkf_children(c, c->root);
  for (uint32_t i = 0; i < top.n; i++) {
    if (!pkf_type_is(c, top.v[i], PKF_N_IMPORT_STATEMENT))
      continue;
    pkf_nodes ns = pkf_children(c, top.v[i]);
    for (uint32_t k = 0; k < ns.n; k++) {
      TSNode mod = ns.v[k], local = ns.v[k];
      if (pkf_type_is(c, mod, PKF_N_ALIASED_IMPORT)) {
        local = pkf_field(c, mod, PKF_F_ALIAS);
        mod = pkf_field(c, mod, PKF_F_NAME);
      }
      if (pkf_is(c, local, name))
        return pkf_text(c, mod);
    }
  }
  return NULL;
}

void pkf_unknown_name(pkf_ctx *c, TSNode n) {
  const char *t = pkf_text(c, n);
  const pkf_dead *dd = pkf_lookup_dead(c, t, strlen(t));
  if (dd && !dd->construct)
    return; /* its assignment was rejected, and said so */
  const char *from = pkf_imported_from(c, t);
  if (dd) {
    pki_error(c->d, pkf_span(n), "scope",
              "name '%s' is not defined here: it was bound inside the '%s' at %u:%u; "
              "declare it before the block", t, dd->construct, dd->at.line, dd->at.col);
  } else if (from) {
    pki_error(c->d, pkf_span(n), "unknown-name",
              "name '%s' is imported from %s, which pkc does not read (it translates one "
              "file at a time): define '%s' in this file, or pass it to the kernel as an "
              "argument", t, from, t);
  } else if ((from = imported_module(c, t))) {
    pki_error(c->d, pkf_span(n), "unknown-name",
              "'%s' is the module %s, which pkc does not read in kernels (it translates one "
              "file at a time): define the @pk.function (or value) in this file, or pass "
              "the value to the kernel as an argument", t, from);
  } else {
    pki_error(c->d, pkf_span(n), "unknown-name",
              "name '%s' is not defined; kernels can use their parameters, locals%s "
              "and math functions", t,
              c->ent && c->ent->kind == PKI_ENT_FUNCTOR ? ", functor members (self.x)" : "");
  }
}

static pki_expr *var_expr(pkf_ctx *c, TSNode at, pki_var *v) {
  pki_expr *e = pki_new_expr(c->m, PKI_E_VAR, pkf_span(at));
  e->var = v;
  return e;
}

static pki_expr *name_expr(pkf_ctx *c, TSNode n) {
  uint32_t s = ts_node_start_byte(n);
  pki_var *v = pkf_lookup(c, c->src + s, ts_node_end_byte(n) - s);
  if (v || (v = pkf_bare_member(c, n)))
    return var_expr(c, n, v);
  const pkf_alias *a = pkf_alias_find(c, n);
  double dv;
  if (a && a->kind == PKF_AL_MATHNAME && pkf_math_const(a->orig, &dv))
    return const_expr(c, n, a->orig);
  if (a) {
    pki_error(c->d, pkf_span(n), "unsupported-expression",
              "'%s' cannot be used as a value in a kernel", pkf_text(c, n));
    return NULL;
  }
  if (pkf_is(c, n, "self") && c->ent && c->ent->kind == PKI_ENT_CLASSTYPE && c->fn &&
      !c->fn->is_ctor) { /* self.norm() calling self.sq(), other.dot(self) */
    pki_expr *e = pki_new_expr(c->m, PKI_E_SELF, pkf_span(n));
    e->type = pki_class_type(c->ent);
    return e;
  }
  const pkf_dead *dd = pkf_lookup_dead(c, c->src + s, ts_node_end_byte(n) - s);
  if (dd && !dd->construct)
    return NULL; /* a local whose assignment was rejected: not a module name */
  pki_expr *k = pkf_constant_lookup(c, n); /* entities helper: module constants */
  if (k)
    return k;
  bool handled;
  k = pkf_global_capture(c, n, &handled); /* module globals: implicit arguments */
  if (handled || pkf_global_error(c, n))
    return k;
  pkf_unknown_name(c, n);
  return NULL;
}

bool pkf_is_self_attr(pkf_ctx *c, TSNode n) {
  return pkf_type_is(c, n, PKF_N_ATTRIBUTE) && c->ent &&
         (c->ent->kind == PKI_ENT_FUNCTOR || c->ent->kind == PKI_ENT_WORKLOAD ||
          c->ent->kind == PKI_ENT_CLASSTYPE) && /* entities helper */
         pkf_is(c, pkf_field(c, n, PKF_F_OBJECT), "self");
}

/* How to declare member self.<name> of the class being lowered. (A base
 * class of this file that declares it in its __init__ gives it already.) */
const char *pkf_member_hint(pkf_ctx *c, const char *name) {
  return pki_sprintf(c->m->arena, "declare it in __init__ with an annotation, e.g. "
                     "'self.%s: float = ...' or 'self.%s: pk.View1D[pk.double] = ...'", name, name);
}

/* self.x: the member; reports if unknown. */
static pki_var *self_member(pkf_ctx *c, TSNode attr) {
  const char *name = pkf_text(c, pkf_field(c, attr, PKF_F_ATTRIBUTE));
  pki_var *v = pki_entity_member(c->ent, name);
  if (!v && pkf_list_member_error(c, attr, name))
    return NULL;
  if (!v)
    pki_error(c->d, pkf_span(attr), "unknown-member", "functor '%s' has no data member "
              "'self.%s'; %s", c->ent->name, name, pkf_member_hint(c, name));
  return v;
}

pki_var *pkf_bare_member(pkf_ctx *c, TSNode id) {
  return pkf_type_is(c, id, PKF_N_IDENTIFIER) ? pkf_bare_member_named(c, pkf_text(c, id)) : NULL;
}

pki_var *pkf_bare_member_named(pkf_ctx *c, const char *name) {
  if (!c->ent || !c->fn)
    return NULL;
  pki_entity_kind k = c->ent->kind;
  if (k != PKI_ENT_FUNCTOR && k != PKI_ENT_WORKLOAD && k != PKI_ENT_CLASSTYPE)
    return NULL;
  if (c->fn->is_ctor && k != PKI_ENT_CLASSTYPE)
    return NULL; /* a workload's __init__ is Python: bare names are its locals */
  return pki_entity_member(c->ent, name);
}

static pki_expr *attribute_expr(pkf_ctx *c, TSNode n) {
  pki_expr *r; /* entities helper: classtype fields, self.x of classtypes/workloads */
  if (pkf_ent_attr(c, n, &r))
    return r;
  if (pkf_is_self_attr(c, n)) {
    pki_var *v = self_member(c, n);
    return v ? var_expr(c, n, v) : NULL;
  }
  TSNode obj = pkf_field(c, n, PKF_F_OBJECT), attr = pkf_field(c, n, PKF_F_ATTRIBUTE);
  if (pkf_alias_is(c, obj, PKF_AL_MATH)) {
    const char *nm = pkf_text(c, attr);
    double dv;
    if (pkf_math_const(nm, &dv))
      return const_expr(c, n, nm);
    pki_error(c->d, pkf_span(n), "unsupported-expression",
              "'%s' is not a math constant usable in kernels (pi, e, tau, inf, nan)",
              pkf_text(c, n));
    return NULL;
  }
  if (pkf_type_is(c, obj, PKF_N_IDENTIFIER)) {
    uint32_t s0 = ts_node_start_byte(obj);
    const pkf_dead *dead = pkf_lookup_dead(c, c->src + s0, ts_node_end_byte(obj) - s0);
    if (dead && !dead->construct && c->d->errors > 0)
      return NULL; /* a name whose binding was rejected (reported there) */
  }
  pki_error(c->d, pkf_span(n), "unsupported-expression",
            "attribute access '%s' is not supported in kernels", pkf_text(c, n));
  return NULL;
}

/* -------------------------------------------------------------- indexing */

enum { MAX_INDICES = 8 };

/* A[i][j] as A[i, j]: the subscripts of a chain, in order. Exact only where
 * no subscript but the last slices (A[1:][0] is row 1 of A, not A[1:, 0]). */
static bool flatten(pkf_ctx *c, TSNode n, TSNode *base, TSNode *ix, int *nix, bool *sliced) {
  TSNode v = pkf_field(c, n, PKF_F_VALUE);
  if (pkf_type_is(c, v, PKF_N_SUBSCRIPT)) {
    if (!flatten(c, v, base, ix, nix, sliced))
      return false;
    if (*sliced) {
      pki_error(c->d, pkf_span(n), "unsupported-expression",
                "'%s' indexes a slice of a View; pkc does not compose subscripts after a "
                "slice: index the View once (A[1:][0] is A[1, :], A[i, :][1:] is A[i, 1:])",
                pkf_text(c, n));
      return false;
    }
  } else {
    *base = v;
  }
  pkf_nodes ch = pkf_children(c, n);
  for (uint32_t i = 1; i < ch.n; i++) {
    *sliced |= pkf_type_is(c, ch.v[i], PKF_N_SLICE);
    if (*nix == MAX_INDICES) {
      unsupported(c, ch.v[i], "too many indices: Views have at most 8 dimensions");
      return false;
    }
    ix[(*nix)++] = ch.v[i];
  }
  return true;
}

/* A View expression: a name or self.member. */
static pki_expr *view_base(pkf_ctx *c, TSNode n) {
  if (pkf_type_is(c, n, PKF_N_IDENTIFIER))
    return name_expr(c, n);
  if (pkf_is_self_attr(c, n))
    return attribute_expr(c, n);
  pki_expr *r; /* a classtype's List field: p[i].v, q.v, self.pos.v */
  if (pkf_type_is(c, n, PKF_N_ATTRIBUTE) && pkf_ent_attr(c, n, &r) && r &&
      r->type.kind == PKI_ARRAY)
    return r;
  return unsupported(c, n, "only Views named by a variable or 'self.x' (and List fields of "
                           "classtypes) can be indexed");
}

static pki_expr *extent_expr(pkf_ctx *c, TSNode call, pki_expr *view, TSNode viewnode, int dim,
                             TSNode dimnode);

/* v.shape[k] (numpy's spelling) with a constant k: v.extent(k). */
static bool shape_subscript(pkf_ctx *c, TSNode n, pki_expr **out) {
  TSNode v = pkf_field(c, n, PKF_F_VALUE);
  if (!pkf_type_is(c, v, PKF_N_ATTRIBUTE) || !pkf_is(c, pkf_field(c, v, PKF_F_ATTRIBUTE), "shape"))
    return false;
  TSNode obj = pkf_field(c, v, PKF_F_OBJECT);
  pkf_nodes ch = pkf_children(c, n);
  if (!pkf_type_is(c, obj, PKF_N_IDENTIFIER) && !pkf_is_self_attr(c, obj))
    return false;
  *out = NULL;
  if (ch.n != 2 || !pkf_type_is(c, ch.v[1], PKF_N_INTEGER)) {
    pki_error(c->d, pkf_span(n), "unsupported-expression",
              "'%s': a View's shape takes one constant index in kernels; write %s.extent(k)",
              pkf_text(c, n), pkf_text(c, obj));
    return true;
  }
  pki_expr *view = view_base(c, obj);
  if (view)
    *out = extent_expr(c, n, view, obj, atoi(pkf_text(c, ch.v[1])), ch.v[1]);
  return true;
}

pki_expr *pkf_subscript(pkf_ctx *c, TSNode n) {
  pki_expr *shape;
  if (shape_subscript(c, n, &shape))
    return shape;
  TSNode base, ix[MAX_INDICES];
  int nix = 0;
  bool sliced = false;
  if (!flatten(c, n, &base, ix, &nix, &sliced))
    return NULL;
  pki_expr *b = view_base(c, base);
  if (!b)
    return NULL;
  if (sliced) /* kernels helper: A[i, :], A[a:b] */
    return pkf_subview(c, n, b, ix, nix);
  pki_type t = b->kind == PKI_E_VAR ? b->var->type : pki_void_type;
  if (t.kind == PKI_ARRAY && t.rank > 0 && nix == 2) {
    /* List[List[T]] m[r][k]: the flat element r * columns + k */
    pki_expr *r = pkf_expr(c, ix[0]), *k = pkf_expr(c, ix[1]);
    if (!r || !k)
      return NULL;
    pki_expr *cols = pki_new_expr(c->m, PKI_E_INT, pkf_span(ix[0]));
    cols->ival = t.rank;
    pki_expr *mul = pki_new_expr_n(c->m, PKI_E_BINARY, pkf_span(ix[0]), 2);
    mul->op = PKI_OP_MUL, mul->args[0] = r, mul->args[1] = cols;
    pki_expr *add = pki_new_expr_n(c->m, PKI_E_BINARY, pkf_span(n), 2);
    add->op = PKI_OP_ADD, add->args[0] = mul, add->args[1] = k;
    pki_expr *e = pki_new_expr_n(c->m, PKI_E_INDEX, pkf_span(n), 2);
    e->args[0] = b;
    e->args[1] = add;
    return e;
  }
  if (t.kind == PKI_ARRAY && t.rank > 0) {
    pki_error(c->d, pkf_span(n), "rank-mismatch",
              "List[List] '%s' takes two indices, m[row][column]", pkf_text(c, base));
    return NULL;
  }
  if (t.kind == PKI_ARRAY && nix != 1) {
    pki_error(c->d, pkf_span(n), "rank-mismatch",
              "typing.List '%s' takes one index", pkf_text(c, base));
    return NULL;
  }
  if (t.kind == PKI_ARRAY)
    t = pki_void_type; /* xs[k]: PKI_E_INDEX of the array */
  if (t.kind != PKI_VOID && t.kind != PKI_VIEW) {
    pki_error(c->d, pkf_span(base), "not-a-view",
              "'%s' is a %s, not a View: it cannot be indexed", pkf_text(c, base),
              pki_type_str(c->m->arena, t));
    return NULL;
  }
  if (t.kind == PKI_VIEW && t.rank != nix) {
    pki_error(c->d, pkf_span(n), "rank-mismatch",
              "View '%s' has rank %d but is indexed with %d index%s; give one index per "
              "dimension", pkf_text(c, base), t.rank, nix, nix == 1 ? "" : "es");
    return NULL;
  }
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_INDEX, pkf_span(n), nix + 1);
  e->args[0] = b;
  bool ok = true;
  for (int i = 0; i < nix; i++)
    ok &= (e->args[i + 1] = pkf_expr(c, ix[i])) != NULL;
  return ok ? e : NULL;
}

/* ------------------------------------------------------------- operators */

static const struct {
  const char *text;
  pki_op op;
} binops[] = {{"+", PKI_OP_ADD},     {"-", PKI_OP_SUB},      {"*", PKI_OP_MUL},
              {"/", PKI_OP_DIV},     {"//", PKI_OP_FLOORDIV}, {"%", PKI_OP_MOD},
              {"**", PKI_OP_POW},    {"&", PKI_OP_BITAND},   {"|", PKI_OP_BITOR},
              {"^", PKI_OP_BITXOR},  {"<<", PKI_OP_SHL},     {">>", PKI_OP_SHR},
              {"<", PKI_OP_LT},      {"<=", PKI_OP_LE},      {">", PKI_OP_GT},
              {">=", PKI_OP_GE},     {"==", PKI_OP_EQ},      {"!=", PKI_OP_NE}};

static pki_op op_of(pkf_ctx *c, TSNode tok) {
  for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++)
    if (pkf_is(c, tok, binops[i].text))
      return binops[i].op;
  return PKI_OP_NONE;
}

static pki_expr *node2(pkf_ctx *c, pki_expr_kind k, pki_op op, pki_span sp, pki_expr *a,
                       pki_expr *b) {
  if (!a || !b)
    return NULL;
  pki_expr *e = pki_new_expr_n(c->m, k, sp, 2);
  e->op = op;
  e->args[0] = a;
  e->args[1] = b;
  return e;
}

/* tree-sitter-python ranks ^ above & (its PREC.xor 16 against bitwise_and
 * 15); Python ranks & above ^ (a ^ b & c is a ^ (b & c)). An unparenthesized
 * chain of the two is collected in source order (operands and operators) and
 * lowered with Python's precedence; false where n holds no such mix. */
enum { XOR_AND_MAX = 64 };
typedef struct xor_and_chain {
  TSNode operand[XOR_AND_MAX];
  pki_op op[XOR_AND_MAX];
  int n; /* operands; n - 1 operators */
  bool xor, and, overflow;
} xor_and_chain;

static void collect_xor_and(pkf_ctx *c, TSNode n, xor_and_chain *ch) {
  if (pkf_type_is(c, n, PKF_N_BINARY_OPERATOR)) {
    pki_op op = op_of(c, pkf_field(c, n, PKF_F_OPERATOR));
    if (op == PKI_OP_BITXOR || op == PKI_OP_BITAND) {
      collect_xor_and(c, pkf_field(c, n, PKF_F_LEFT), ch);
      if (ch->n > 0 && ch->n <= XOR_AND_MAX)
        ch->op[ch->n - 1] = op;
      ch->xor |= op == PKI_OP_BITXOR;
      ch->and |= op == PKI_OP_BITAND;
      collect_xor_and(c, pkf_field(c, n, PKF_F_RIGHT), ch);
      return;
    }
  }
  if (ch->n < XOR_AND_MAX)
    ch->operand[ch->n] = n;
  else
    ch->overflow = true;
  ch->n++;
}

/* Operands [i, j) of ch joined by &, left to right. */
static pki_expr *and_run(pkf_ctx *c, const xor_and_chain *ch, int i, int j) {
  pki_expr *e = pkf_expr(c, ch->operand[i]);
  for (int k = i + 1; k < j; k++)
    e = node2(c, PKI_E_BINARY, PKI_OP_BITAND, pkf_span2(ch->operand[i], ch->operand[k]), e,
              pkf_expr(c, ch->operand[k]));
  return e;
}

static pki_expr *xor_and_expr(pkf_ctx *c, const xor_and_chain *ch) {
  pki_expr *e = NULL;
  int start = 0;
  for (int k = 1; k <= ch->n; k++) {
    if (k < ch->n && ch->op[k - 1] != PKI_OP_BITXOR)
      continue;
    pki_expr *run = and_run(c, ch, start, k);
    e = e ? node2(c, PKI_E_BINARY, PKI_OP_BITXOR, pkf_span2(ch->operand[0], ch->operand[k - 1]),
                  e, run)
          : run;
    start = k;
  }
  return e;
}

static pki_expr *binary_expr(pkf_ctx *c, TSNode n) {
  TSNode tok = pkf_field(c, n, PKF_F_OPERATOR);
  pki_op op = op_of(c, tok);
  if (op == PKI_OP_BITXOR || op == PKI_OP_BITAND) {
    xor_and_chain ch = {.n = 0};
    collect_xor_and(c, n, &ch);
    if (ch.xor && ch.and && ch.overflow)
      return unsupported(c, n, "more than 64 operands joined by ^ and & without parentheses; "
                               "parenthesize parts of the expression");
    if (ch.xor && ch.and)
      return xor_and_expr(c, &ch);
  }
  if (op == PKI_OP_NONE || op >= PKI_OP_LT)
    return unsupported(c, tok, "the '@' operator is not supported in kernels");
  pki_expr *a = pkf_expr(c, pkf_field(c, n, PKF_F_LEFT));
  pki_expr *b = pkf_expr(c, pkf_field(c, n, PKF_F_RIGHT));
  return node2(c, PKI_E_BINARY, op, pkf_span(n), a, b);
}

static pki_expr *bool_expr(pkf_ctx *c, TSNode n) {
  pki_op op = pkf_is(c, pkf_field(c, n, PKF_F_OPERATOR), "and") ? PKI_OP_AND : PKI_OP_OR;
  pki_expr *a = pkf_expr(c, pkf_field(c, n, PKF_F_LEFT));
  pki_expr *b = pkf_expr(c, pkf_field(c, n, PKF_F_RIGHT));
  return node2(c, PKI_E_LOGICAL, op, pkf_span(n), a, b);
}

static pki_expr *compare_expr(pkf_ctx *c, TSNode n) {
  pkf_nodes all = pkf_all_children(c, n);
  pki_expr *result = NULL, *left = NULL;
  TSNode left_node = {0};
  pki_op pending = PKI_OP_NONE;
  for (uint32_t i = 0; i < all.n; i++) {
    TSNode ch = all.v[i];
    if (!ts_node_is_named(ch)) {
      pending = op_of(c, ch);
      if (pending < PKI_OP_LT)
        return unsupported(c, ch, "'is', 'is not', 'in' and 'not in' are not supported in "
                                  "kernels; compare numbers with == or !=");
      continue;
    }
    pki_expr *right = pkf_expr(c, ch);
    if (!right)
      return NULL;
    if (left) {
      pki_expr *cmp = node2(c, PKI_E_COMPARE, pending, pkf_span2(left_node, ch), left, right);
      result = result ? node2(c, PKI_E_LOGICAL, PKI_OP_AND, pkf_span2(all.v[0], ch), result, cmp)
                      : cmp;
    }
    left = right;
    left_node = ch;
  }
  return result;
}

static pki_expr *unary_expr(pkf_ctx *c, TSNode n) {
  TSNode arg = pkf_field(c, n, PKF_F_ARGUMENT);
  pki_op op;
  if (pkf_type_is(c, n, PKF_N_NOT_OPERATOR)) {
    op = PKI_OP_NOT;
  } else {
    TSNode tok = pkf_field(c, n, PKF_F_OPERATOR);
    op = pkf_is(c, tok, "-") ? PKI_OP_NEG : pkf_is(c, tok, "+") ? PKI_OP_POS : PKI_OP_INVERT;
    if (op == PKI_OP_NEG && pkf_type_is(c, arg, PKF_N_INTEGER)) {
      pki_expr *lit = int_literal(c, arg, true);
      if (lit)
        lit->span = pkf_span(n);
      return lit;
    }
  }
  pki_expr *a = pkf_expr(c, arg);
  if (!a)
    return NULL;
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_UNARY, pkf_span(n), 1);
  e->op = op;
  e->args[0] = a;
  return e;
}

static pki_expr *cond_expr(pkf_ctx *c, TSNode n) {
  pkf_nodes ch = pkf_children(c, n);
  if (ch.n != 3)
    return unsupported(c, n, "malformed conditional expression");
  pki_expr *a = pkf_expr(c, ch.v[0]), *cond = pkf_expr(c, ch.v[1]), *b = pkf_expr(c, ch.v[2]);
  if (!a || !cond || !b)
    return NULL;
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_COND, pkf_span(n), 3);
  e->args[0] = cond;
  e->args[1] = a;
  e->args[2] = b;
  return e;
}

/* ----------------------------------------------------------------- calls */

/* Lowers positional arguments; reports keyword/starred ones. */
static bool call_args(pkf_ctx *c, TSNode call, pki_expr ***out, int *n) {
  TSNode al = pkf_field(c, call, PKF_F_ARGUMENTS);
  if (pkf_type_is(c, al, PKF_N_GENERATOR_EXPRESSION)) {
    unsupported(c, al, "generator expressions are not supported in kernels; write a for loop");
    return false;
  }
  pkf_nodes ch = pkf_children(c, al);
  pki_expr **args = pki_alloc(c->m->arena, sizeof *args * (ch.n + 1));
  bool ok = true;
  for (uint32_t i = 0; i < ch.n; i++)
    ok &= (args[i] = pkf_expr(c, ch.v[i])) != NULL;
  *out = args;
  *n = (int)ch.n;
  return ok;
}

static pki_expr *arity_error(pkf_ctx *c, TSNode call, const char *name, int lo, int hi, int got) {
  if (lo == hi)
    pki_error(c->d, pkf_span(call), "arity",
              "wrong number of arguments to '%s': expected %d, got %d", name, lo, got);
  else
    pki_error(c->d, pkf_span(call), "arity",
              "wrong number of arguments to '%s': expected %d to %d, got %d", name, lo, hi, got);
  return NULL;
}

static pki_expr *builtin_call(pkf_ctx *c, TSNode call, const char *shown, int b) {
  pki_expr **args;
  int n;
  if (!call_args(c, call, &args, &n))
    return NULL;
  const pki_builtin_info *bi = &pki_builtins[b];
  if (n < bi->min_args || n > bi->max_args)
    return arity_error(c, call, shown, bi->min_args, bi->max_args, n);
  pki_expr *e = pki_new_expr(c->m, PKI_E_BUILTIN, pkf_span(call));
  e->builtin = (pki_builtin)b;
  e->args = args;
  e->nargs = n;
  return e;
}

/* The default value of parameter v of a device function, or a null node. */
static TSNode param_default(const pkf_ctx *c, const pki_var *v) {
  for (int i = 0; i < c->ndefaults; i++)
    if (c->defaults[i].param == v)
      return c->defaults[i].value;
  return (TSNode){0};
}

pki_expr **pkf_bind_args(pkf_ctx *c, TSNode call, const char *name, const pki_func *f,
                         int skip) {
  TSNode al = pkf_field(c, call, PKF_F_ARGUMENTS);
  if (pkf_type_is(c, al, PKF_N_GENERATOR_EXPRESSION)) {
    unsupported(c, al, "generator expressions are not supported in kernels; write a for loop");
    return NULL;
  }
  pkf_nodes ch = pkf_children(c, al);
  int np = f ? f->nparams : 0;
  pki_expr **args = pki_alloc(c->m->arena, sizeof *args * (size_t)(np + skip + 1));
  pki_expr **a = args + skip;
  bool ok = true, keywords = false;
  int npos = 0;
  for (uint32_t i = 0; i < ch.n; i++) {
    TSNode x = ch.v[i];
    if (pkf_type_is(c, x, PKF_N_LIST_SPLAT) || pkf_type_is(c, x, PKF_N_DICTIONARY_SPLAT)) {
      ok &= pkf_expr(c, x) != NULL; /* the located "starred arguments" error */
      continue;
    }
    if (!pkf_type_is(c, x, PKF_N_KEYWORD_ARGUMENT)) {
      if (keywords) {
        pki_error(c->d, pkf_span(x), "syntax-error",
                  "positional argument follows keyword argument (Python: SyntaxError)");
        return NULL;
      }
      if (npos >= np)
        return arity_error(c, call, name, np, np, (int)ch.n), NULL;
      ok &= (a[npos++] = pkf_expr(c, x)) != NULL;
      continue;
    }
    keywords = true;
    TSNode kn = pkf_field(c, x, PKF_F_NAME);
    int k = -1;
    for (int j = 0; j < np && k < 0; j++)
      if (pkf_is(c, kn, f->params[j]->name))
        k = j;
    if (k < 0 || a[k]) {
      pki_error(c->d, pkf_span(kn), "bad-call",
                k < 0 ? "'%s' has no parameter '%s'" : "'%s' got several values for '%s'",
                name, pkf_text(c, kn));
      ok = false;
      continue;
    }
    ok &= (a[k] = pkf_expr(c, pkf_field(c, x, PKF_F_VALUE))) != NULL;
  }
  for (int k = 0; ok && k < np; k++) {
    if (a[k])
      continue;
    TSNode d = param_default(c, f->params[k]);
    if (ts_node_is_null(d)) {
      if (!keywords)
        return arity_error(c, call, name, np, np, npos), NULL;
      pki_error(c->d, pkf_span(call), "arity", "'%s' is missing the argument '%s'", name,
                f->params[k]->name);
      return NULL;
    }
    /* as Python: the def's value; a module constant named there is that
     * constant even where a local of the caller has its name */
    pki_expr *kv = pkf_type_is(c, d, PKF_N_IDENTIFIER) ? pkf_constant_lookup(c, d) : NULL;
    ok &= (a[k] = kv ? kv : pkf_expr(c, d)) != NULL;
  }
  return ok ? args : NULL;
}

static pki_expr *func_call(pkf_ctx *c, TSNode call, pki_func *f) {
  if (f->is_workunit) {
    pki_error(c->d, pkf_span(call), "bad-call",
              "workunit '%s' cannot be called from a kernel; call a @pk.function instead",
              f->name);
    return NULL;
  }
  if (f == c->fn) {
    pki_error(c->d, pkf_span(call), "recursion",
              "recursive call to '%s': recursion is not supported in kernels; use a loop",
              f->name);
    return NULL;
  }
  pki_expr **args = pkf_bind_args(c, call, f->name, f, 0);
  if (!args)
    return NULL;
  pki_expr *e = pki_new_expr(c->m, PKI_E_CALL, pkf_span(call));
  e->func = f;
  e->args = args;
  e->nargs = f->nparams;
  return e;
}

static pki_type view_type_of(const pki_expr *e) {
  return e->kind == PKI_E_VAR ? e->var->type : pki_void_type;
}

static pki_expr *extent_expr(pkf_ctx *c, TSNode call, pki_expr *view, TSNode viewnode, int dim,
                             TSNode dimnode) {
  pki_type t = view_type_of(view);
  if (view->kind != PKI_E_VAR || (t.kind != PKI_VOID && t.kind != PKI_VIEW)) {
    pki_error(c->d, pkf_span(viewnode), "not-a-view", "'%s' is not a View",
              pkf_text(c, viewnode));
    return NULL;
  }
  if (t.kind == PKI_VIEW && dim >= t.rank) {
    pki_error(c->d, pkf_span(dimnode), "bad-extent",
              "dimension %d is out of range: View '%s' has rank %d", dim, view->var->name,
              t.rank);
    return NULL;
  }
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_EXTENT, pkf_span(call), 1);
  e->args[0] = view;
  e->ival = dim;
  return e;
}

static pki_expr *cast_call(pkf_ctx *c, TSNode call, const char *name, pki_type t) {
  pki_expr **args;
  int n;
  if (!call_args(c, call, &args, &n))
    return NULL;
  if (n != 1)
    return arity_error(c, call, name, 1, 1, n);
  pki_expr *e = pki_new_expr_n(c->m, PKI_E_CAST, pkf_span(call), 1);
  e->args[0] = args[0];
  e->type = t;
  return e;
}

static pki_expr *len_call(pkf_ctx *c, TSNode call) {
  pki_expr **args;
  int n;
  if (!call_args(c, call, &args, &n))
    return NULL;
  if (n != 1)
    return arity_error(c, call, "len", 1, 1, n);
  TSNode a = pkf_named_child(c, pkf_field(c, call, PKF_F_ARGUMENTS), 0);
  return extent_expr(c, call, args[0], a, 0, a);
}

static pki_func *find_dfunc(pkf_ctx *c, TSNode name) {
  for (int i = 0; i < c->ndf; i++)
    if (pkf_is(c, name, c->dfuncs[i]->name))
      return c->dfuncs[i];
  return NULL;
}

static pki_expr *name_call(pkf_ctx *c, TSNode call, TSNode fn) {
  const char *nm = pkf_text(c, fn);
  if (pkf_lookup(c, nm, strlen(nm))) {
    pki_error(c->d, pkf_span(fn), "bad-call", "'%s' is a variable, not a function", nm);
    return NULL;
  }
  pki_expr *r; /* entities helper: classtype construction */
  if (pkf_ent_name_call(c, call, fn, &r))
    return r;
  pki_func *f = find_dfunc(c, fn);
  if (f)
    return func_call(c, call, f);
  if (!strcmp(nm, "abs") || !strcmp(nm, "min") || !strcmp(nm, "max"))
    return builtin_call(c, call, nm, pki_builtin_lookup(nm));
  if (!strcmp(nm, "int"))
    return cast_call(c, call, nm, pki_int_type);
  double special;
  if (!strcmp(nm, "float") && pkf_special_float(c, call, &special)) {
    pki_expr *e = pki_new_expr(c->m, PKI_E_FLOAT, pkf_span(call));
    e->fval = special;
    return e;
  }
  if (!strcmp(nm, "float"))
    return cast_call(c, call, nm, pki_float_type);
  if (!strcmp(nm, "nan")) { /* C's nan("") (upstream's lib/ufuncs.py kernels): a quiet NaN */
    pkf_nodes args = pkf_named_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
    if (args.n != 1 || !pkf_type_is(c, args.v[0], PKF_N_STRING))
      return unsupported(c, call, "nan() takes one string, as C's nan(\"\"); or write "
                                  "float(\"nan\") or math.nan");
    pki_expr *e = pki_new_expr(c->m, PKI_E_FLOAT, pkf_span(call));
    e->fval = NAN;
    e->str = "nan";
    return e;
  }
  if (!strcmp(nm, "bool"))
    return cast_call(c, call, nm, pki_bool_type);
  if (!strcmp(nm, "len"))
    return len_call(c, call);
  const pkf_alias *a = pkf_alias_find(c, fn);
  if (a && a->kind == PKF_AL_MATHNAME) {
    int b = pki_builtin_lookup(a->orig);
    if (b > PKI_BUILTIN_MAX && b != PKI_BUILTIN_ROUND)
      return builtin_call(c, call, a->orig, b);
    pki_error(c->d, pkf_span(fn), "unsupported-function",
              "math.%s is not supported in kernels", a->orig);
    return NULL;
  }
  if (!strcmp(nm, "range"))
    return unsupported(c, call, "range() is only supported as the iterable of a for loop");
  if (!strcmp(nm, "print"))
    return unsupported(c, call, "print() is not supported in kernels; use pk.printf(fmt, ...)");
  if (!strcmp(nm, "pow")) { /* Python's builtin: a ** b (exact for ints), not math.pow */
    pki_expr **args;
    int n;
    if (!call_args(c, call, &args, &n))
      return NULL;
    if (n == 3)
      return unsupported(c, call, "pow(base, exp, mod) is not supported in kernels; compute "
                                  "the power with a loop, reducing modulo mod at each step");
    if (n != 2)
      return arity_error(c, call, nm, 2, 2, n);
    return node2(c, PKI_E_BINARY, PKI_OP_POW, pkf_span(call), args[0], args[1]);
  }
  int mb = pki_builtin_lookup(nm);
  if (mb > PKI_BUILTIN_MAX) /* `sqrt(x)` unimported, or inside a workunit named `sin`: */
    return builtin_call(c, call, nm, mb); /* C++ finds the math function, as for PyKokkos */
  for (int i = 0; i < c->m->nentities; i++) /* only on the error path: linear is fine */
    if (c->m->entities[i]->kind == PKI_ENT_WORKUNIT && !strcmp(c->m->entities[i]->name, nm))
      return func_call(c, call, c->m->entities[i]->funcs[0]);
  const char *from = pkf_imported_from(c, nm);
  if (from)
    pki_error(c->d, pkf_span(fn), "unknown-function",
              "'%s' is imported from %s, which pkc does not read (it translates one file "
              "at a time): define the @pk.function (or @pk.classtype) in this file", nm, from);
  else
    pki_error(c->d, pkf_span(fn), "unknown-function",
              "unknown function '%s'; kernels can call @pk.function functions, abs/min/max, "
              "int/float/bool, len and math functions", nm);
  return NULL;
}

/* ------------------------------------------------------------ method calls */

static bool math_method(pkf_ctx *c, const pkf_method *mc, pki_expr **out) {
  if (!pkf_alias_is(c, mc->obj, PKF_AL_MATH))
    return false;
  int b = pki_builtin_lookup(mc->name);
  *out = NULL;
  if (b > PKI_BUILTIN_MAX && b != PKI_BUILTIN_ROUND) /* round is Python's, not math's */
    *out = builtin_call(c, mc->call, pkf_text(c, mc->fn), b);
  else
    pki_error(c->d, pkf_span(mc->fn), "unsupported-function",
              "math.%s is not supported in kernels", mc->name);
  return true;
}

static bool pk_module_call(pkf_ctx *c, const pkf_method *mc, pki_expr **out) {
  if (!pkf_alias_is(c, mc->obj, PKF_AL_PK))
    return false;
  for (int i = 0; c->host && i < c->nhoisted; i++)
    if (ts_node_eq(c->hoisted[i].call, mc->call)) { /* a dispatch run before its statement */
      *out = pki_new_expr(c->m, PKI_E_VAR, pkf_span(mc->call));
      (*out)->var = c->hoisted[i].var;
      (*out)->type = c->hoisted[i].var->type;
      return true;
    }
  if (pkf_kernel_pk_call(c, mc, out))
    return true; /* kernels helper: atomics, subviews, scratch views */
  *out = NULL;
  pki_type t;
  if (!strcmp(mc->name, "printf"))
    unsupported(c, mc->call, "pk.printf(...) is a statement; call it on its own line");
  else if (pkf_type_quiet(c, mc->fn, false, &t) &&
           (pki_is_numeric(t.kind) || t.kind == PKI_BOOL)) /* pk.uint64(x): a conversion */
    *out = cast_call(c, mc->call, pkf_text(c, mc->fn), t);
  else if (c->host && (!strcmp(mc->name, "parallel_for") || !strcmp(mc->name, "parallel_reduce") ||
                        !strcmp(mc->name, "parallel_scan")))
    pki_error(c->d, pkf_span(mc->fn), "unsupported-function",
              "'%s' is supported in @pk.main as a statement or inside the value of an "
              "assignment (not in a condition, an if-expression, `and`/`or` or a "
              "comprehension); assign its result to a variable on a line of its own first",
              pkf_text(c, mc->fn));
  else if (c->host)
    pki_error(c->d, pkf_span(mc->fn), "unsupported-function",
              "'%s' is not supported in @pk.main; call it in the Python code around "
              "pk.execute(...), or do the work in a workunit", pkf_text(c, mc->fn));
  else
    pki_error(c->d, pkf_span(mc->fn), "unsupported-function",
              "'%s' is not supported in kernels yet", pkf_text(c, mc->fn));
  return true;
}

static bool numpy_call(pkf_ctx *c, const pkf_method *mc, pki_expr **out) {
  if (!pkf_alias_is(c, mc->obj, PKF_AL_NP))
    return false;
  pki_type t;
  if (pkf_type_quiet(c, mc->fn, false, &t) && (pki_is_numeric(t.kind) || t.kind == PKI_BOOL)) {
    *out = cast_call(c, mc->call, pkf_text(c, mc->fn), t); /* np.float32(x): a conversion */
    return true;
  }
  *out = NULL;
  pki_error(c->d, pkf_span(mc->fn), "unsupported-function",
            "numpy functions cannot be called in kernels; use the math module (math.%s)",
            mc->name);
  *out = NULL;
  return true;
}

/* self.NAME(...) of a functor or workload: its @pk.function methods; a data
 * member's methods go on to the later rules. */
static bool self_method(pkf_ctx *c, const pkf_method *mc, pki_expr **out) {
  if (!pkf_type_is(c, mc->obj, PKF_N_IDENTIFIER) || !pkf_is(c, mc->obj, "self") || !c->ent ||
      (c->ent->kind != PKI_ENT_FUNCTOR && c->ent->kind != PKI_ENT_WORKLOAD))
    return false;
  for (int i = 0; i < c->ent->nfuncs; i++)
    if (!strcmp(c->ent->funcs[i]->name, mc->name)) {
      *out = func_call(c, mc->call, c->ent->funcs[i]);
      return true;
    }
  if (pki_entity_member(c->ent, mc->name))
    return false;
  pki_error(c->d, pkf_span(mc->fn), "unknown-function",
            "functor '%s' has no @pk.function method '%s'", c->ent->name, mc->name);
  *out = NULL;
  return true;
}

/* NAME.meth(...) where NAME is not defined at all (a bare data member is). */
static bool unknown_object(pkf_ctx *c, const pkf_method *mc, pki_expr **out) {
  if (!pkf_type_is(c, mc->obj, PKF_N_IDENTIFIER) || pkf_alias_find(c, mc->obj) ||
      pkf_is(c, mc->obj, "self") || pkf_bare_member(c, mc->obj))
    return false;
  uint32_t s = ts_node_start_byte(mc->obj);
  if (pkf_lookup(c, c->src + s, ts_node_end_byte(mc->obj) - s))
    return false;
  pkf_unknown_name(c, mc->obj);
  *out = NULL;
  return true;
}

static bool extent_method(pkf_ctx *c, const pkf_method *mc, pki_expr **out) {
  if (strcmp(mc->name, "extent"))
    return false;
  *out = NULL;
  pki_expr *v = view_base(c, mc->obj);
  if (!v)
    return true;
  pkf_nodes ch = pkf_children(c, pkf_field(c, mc->call, PKF_F_ARGUMENTS));
  if (ch.n != 1 || !pkf_type_is(c, ch.v[0], PKF_N_INTEGER)) {
    pki_error(c->d, pkf_span(mc->call), "bad-extent",
              "extent() takes one integer literal, the dimension, e.g. v.extent(0)");
    return true;
  }
  pki_expr *k = int_literal(c, ch.v[0], false);
  *out = k ? extent_expr(c, mc->call, v, mc->obj, (int)k->ival, ch.v[0]) : NULL;
  return true;
}

/* obj.NAME(...): the first rule that returns true owns the call (fe.h, "Dispatch"). */
static pkf_method_rule *const method_rules[] = {
    pkf_ent_method_call, /* classtype.c: shmem_size, pk.Timer/fence/BinSort, callbacks,
                            timer, binsort and classtype methods */
    math_method,         /* math.NAME(...): builtins */
    pk_module_call,      /* pk.NAME(...): pkf_kernel_pk_call (lower_kexpr.c), else rejected */
    numpy_call,          /* rejected */
    self_method,         /* @pk.function methods of a functor or workload */
    unknown_object,      /* an undefined name: reported */
    pkf_kernel_method,   /* lower_kexpr.c: team member, random pool and state methods */
    extent_method,       /* v.extent(d) */
};

static pki_expr *method_call(pkf_ctx *c, TSNode call, TSNode fn) {
  TSNode attr = pkf_field(c, fn, PKF_F_ATTRIBUTE);
  pkf_method mc = {call, fn, pkf_field(c, fn, PKF_F_OBJECT), attr, pkf_text(c, attr)};
  pki_expr *r = NULL;
  for (size_t i = 0; i < sizeof method_rules / sizeof method_rules[0]; i++)
    if (method_rules[i](c, &mc, &r))
      return r;
  pki_error(c->d, pkf_span(fn), "unsupported-function",
            "method call '%s(...)' is not supported in kernels", pkf_text(c, fn));
  return NULL;
}

static pki_expr *call_expr(pkf_ctx *c, TSNode n) {
  TSNode fn = pkf_field(c, n, PKF_F_FUNCTION);
  if (pkf_type_is(c, fn, PKF_N_IDENTIFIER))
    return name_call(c, n, fn);
  if (pkf_type_is(c, fn, PKF_N_ATTRIBUTE))
    return method_call(c, n, fn);
  return unsupported(c, fn, "only named functions can be called in kernels");
}

/* ------------------------------------------------------------- dispatch */

static pki_expr *integer_expr(pkf_ctx *c, TSNode n) { return int_literal(c, n, false); }

static pki_expr *bool_literal(pkf_ctx *c, TSNode n) {
  pki_expr *e = pki_new_expr(c->m, PKI_E_BOOL, pkf_span(n));
  e->ival = pkf_type_is(c, n, PKF_N_TRUE);
  return e;
}

static pki_expr *unknown_expr(pkf_ctx *c, TSNode n) {
  pki_error(c->d, pkf_span(n), "unsupported-expression",
            "this expression (%s) is not supported in kernels", ts_node_type(n));
  return NULL;
}

static pki_expr *paren_expr(pkf_ctx *c, TSNode n) {
  pkf_nodes ch = pkf_children(c, n);
  return ch.n == 1 ? pkf_expr(c, ch.v[0]) : unknown_expr(c, n);
}

/* How an expression type is lowered (fe.h, "Dispatch"): lower returns the
 * expression (NULL after a reported error); a type without lower is
 * reported with msg, or as "this expression (TYPE) is not supported". */
typedef struct expr_rule {
  pki_expr *(*lower)(pkf_ctx *c, TSNode n);
  const char *msg;
} expr_rule;

static const expr_rule expr_rules[PKF_N_COUNT] = {
    [PKF_N_IDENTIFIER] = {name_expr, NULL},
    [PKF_N_INTEGER] = {integer_expr, NULL},
    [PKF_N_FLOAT] = {float_literal, NULL},
    [PKF_N_TRUE] = {bool_literal, NULL},
    [PKF_N_FALSE] = {bool_literal, NULL},
    [PKF_N_ATTRIBUTE] = {attribute_expr, NULL},
    [PKF_N_SUBSCRIPT] = {pkf_subscript, NULL},
    [PKF_N_CALL] = {call_expr, NULL},
    [PKF_N_COMPARISON_OPERATOR] = {compare_expr, NULL},
    [PKF_N_CONDITIONAL_EXPRESSION] = {cond_expr, NULL},
    [PKF_N_BINARY_OPERATOR] = {binary_expr, NULL},
    [PKF_N_BOOLEAN_OPERATOR] = {bool_expr, NULL},
    [PKF_N_UNARY_OPERATOR] = {unary_expr, NULL},
    [PKF_N_NOT_OPERATOR] = {unary_expr, NULL},
    [PKF_N_PARENTHESIZED_EXPRESSION] = {paren_expr, NULL},
    [PKF_N_STRING] = {NULL, "strings are only allowed as the format of pk.printf(...)"},
    [PKF_N_CONCATENATED_STRING] = {NULL,
        "strings are only allowed as the format of pk.printf(...)"},
    [PKF_N_LIST] = {NULL,
        "list literals are only supported as the initializer of a typing.List local "
        "('xs: List[float] = [0.0, 0.0]') and as the index list of pk.atomic_*"},
    [PKF_N_TUPLE] = {NULL, "tuples are not supported in kernels; use separate variables"},
    [PKF_N_EXPRESSION_LIST] = {NULL,
        "tuples are not supported in kernels; use separate variables"},
    [PKF_N_DICTIONARY] = {NULL,
        "dicts are not supported in kernels; use Views or separate variables"},
    [PKF_N_SET] = {NULL, "sets are not supported in kernels; use Views or separate variables"},
    [PKF_N_LIST_COMPREHENSION] = {NULL,
        "list comprehensions are not supported in kernels; write a for loop"},
    [PKF_N_DICTIONARY_COMPREHENSION] = {NULL,
        "dict comprehensions are not supported in kernels; write a for loop"},
    [PKF_N_SET_COMPREHENSION] = {NULL,
        "set comprehensions are not supported in kernels; write a for loop"},
    [PKF_N_GENERATOR_EXPRESSION] = {NULL,
        "generator expressions are not supported in kernels; write a for loop"},
    [PKF_N_LAMBDA] = {NULL,
        "lambda is not supported in kernels; define a @pk.function and call it"},
    [PKF_N_AWAIT] = {NULL, "'await' is not supported in kernels"},
    [PKF_N_NAMED_EXPRESSION] = {NULL,
        "the walrus operator ':=' is not supported in kernels; assign in a separate statement"},
    [PKF_N_NONE] = {NULL, "None is not supported in kernels; use a number or a bool"},
    [PKF_N_ELLIPSIS] = {NULL, "'...' is not supported in kernels"},
    [PKF_N_SLICE] = {NULL,
        "slices are only supported as subview indices, e.g. A[i, :] or A[a:b]"},
    [PKF_N_LIST_SPLAT] = {NULL,
        "starred arguments (*args) are not supported in kernels; pass arguments one by one"},
    [PKF_N_DICTIONARY_SPLAT] = {NULL,
        "starred arguments (**kwargs) are not supported in kernels; pass arguments one by one"},
    [PKF_N_KEYWORD_ARGUMENT] = {NULL,
        "keyword arguments are not supported in calls inside kernels; pass arguments by "
        "position"},
    [PKF_N_YIELD] = {NULL, "'yield' is not supported in kernels"},
};

pki_expr *pkf_expr(pkf_ctx *c, TSNode n) {
  const expr_rule *r = &expr_rules[pkf_ntype_of(c, n)];
  return r->lower ? r->lower(c, n) : r->msg ? unsupported(c, n, r->msg) : unknown_expr(c, n);
}
