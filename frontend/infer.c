/*
 * infer.c - call-site inference of unannotated FunctionSty kernel arguments
 * (dialect item 10): every pk.parallel_for/reduce/scan(..., kernel, name=EXPR)
 * in the file gives name a type; EXPR is a literal, a View constructor
 * (pk.View([...], dtype), pk.zeros/ones/full/empty/array(..., dtype=...),
 * numpy's zeros/ones/empty/full/arange/random.rand), self.x (its assignment
 * in the enclosing class), or a name bound once (in the enclosing function,
 * else at module level; tuple unpacking included) to one of those or to
 * int(...)/float(...)/len(...). An annotation wins wherever it is: on the
 * binding (`M: int = values[1]`) or on a parameter of the enclosing def.
 * All calls must agree; otherwise the parameter is typed at run time.
 */
#include "ents.h"

typedef struct infer {
  const char *kernel, *pname;
  pki_type t;
  int found;   /* call sites that pass pname */
  bool failed; /* a site whose type is unknown, or two that disagree */
} infer;

static bool expr_type(pkf_ctx *c, TSNode scope, TSNode e, pki_type *out, int depth);

static bool pk_attr_is(pkf_ctx *c, TSNode fn, const char *name) {
  return pkf_type_is(c, fn, PKF_N_ATTRIBUTE) &&
         pkf_alias_is(c, pkf_field(c, fn, PKF_F_OBJECT), PKF_AL_PK) &&
         pkf_is(c, pkf_field(c, fn, PKF_F_ATTRIBUTE), name);
}

/* A binding found by bindings(): the value (or the element of a tuple value
 * an unpacking gives the name) and the annotation, if any. */
typedef struct binding {
  TSNode val, ann;
  int count;
  /* join: each value bound is typed (in def scope) and joined into *join
   * (*first: none joined yet); bad: one could not be, or a for loop binds it */
  pki_type *join;
  bool *first, bad;
  TSNode scope;
  int range_loops; /* `for name in range(...)` binding it (an int each) */
} binding;

static bool join_types(pki_type *acc, pki_type t, bool first);

/* b->join: joins the type of value v bound to the name. */
static void join_binding(pkf_ctx *c, binding *b, TSNode v) {
  pki_type x;
  if (!b->join)
    return;
  if (ts_node_is_null(v) || !expr_type(c, b->scope, v, &x, 0) || !join_types(b->join, x, *b->first))
    b->bad = true;
  else
    *b->first = false;
}

static bool same_name(pkf_ctx *c, TSNode n, const char *name) {
  return pkf_type_is(c, n, PKF_N_IDENTIFIER) && pkf_is(c, n, name);
}

/* `a, b = x, y`: the element of right matching name in left (null if none). */
static TSNode unpacked(pkf_ctx *c, TSNode left, TSNode right, const char *name, bool *hit) {
  pkf_nodes l = pkf_children(c, left);
  for (uint32_t i = 0; i < l.n; i++)
    if (same_name(c, l.v[i], name)) {
      *hit = true;
      if (pkf_type_is(c, right, PKF_N_EXPRESSION_LIST) || pkf_type_is(c, right, PKF_N_TUPLE)) {
        pkf_nodes r = pkf_children(c, right);
        if (r.n == l.n)
          return r.v[i];
      }
      return (TSNode){0};
    }
  return (TSNode){0};
}

/* The `name = value` bindings in n (not looking into nested defs/classes). */
static void bindings(pkf_ctx *c, TSNode n, const char *name, binding *b) {
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++) {
    TSNode ch = kids.v[i];
    pkf_ntype t = pkf_ntype_of(c, ch);
    if (t == PKF_N_FUNCTION_DEFINITION || t == PKF_N_CLASS_DEFINITION ||
        t == PKF_N_DECORATED_DEFINITION)
      continue;
    if (t == PKF_N_ASSIGNMENT || t == PKF_N_AUGMENTED_ASSIGNMENT) {
      TSNode l = pkf_field(c, ch, PKF_F_LEFT), r = pkf_field(c, ch, PKF_F_RIGHT);
      bool hit = false;
      if (same_name(c, l, name)) {
        b->count++;
        b->val = r;
        join_binding(c, b, r);
        if (!ts_node_is_null(pkf_field(c, ch, PKF_F_TYPE)))
          b->ann = pkf_field(c, ch, PKF_F_TYPE);
      } else if (pkf_type_is(c, l, PKF_N_PATTERN_LIST) || pkf_type_is(c, l, PKF_N_TUPLE_PATTERN)) {
        TSNode v = unpacked(c, l, r, name, &hit);
        if (hit) {
          b->count++;
          b->val = v;
          join_binding(c, b, v);
        }
      }
    }
    if (t == PKF_N_FOR_STATEMENT && pkf_is(c, pkf_field(c, ch, PKF_F_LEFT), name)) {
      TSNode it = pkf_field(c, ch, PKF_F_RIGHT), fn = pkf_field(c, it, PKF_F_FUNCTION);
      b->count += 2;
      b->bad = true;
      b->range_loops += pkf_type_is(c, it, PKF_N_CALL) && pkf_type_is(c, fn, PKF_N_IDENTIFIER) &&
                        pkf_is(c, fn, "range");
    }
    bindings(c, ch, name, b);
  }
}

/* The annotation of parameter name of def scope, or null. */
static TSNode param_annotation(pkf_ctx *c, TSNode scope, const char *name) {
  if (ts_node_is_null(scope))
    return (TSNode){0};
  pkf_nodes ps = pkf_children(c, pkf_field(c, scope, PKF_F_PARAMETERS));
  for (uint32_t i = 0; i < ps.n; i++)
    if ((pkf_type_is(c, ps.v[i], PKF_N_TYPED_PARAMETER) ||
         pkf_type_is(c, ps.v[i], PKF_N_TYPED_DEFAULT_PARAMETER)) &&
        same_name(c, pkf_named_child(c, ps.v[i], 0), name))
      return pkf_field(c, ps.v[i], PKF_F_TYPE);
  return (TSNode){0};
}


/* The type of name as bound in def scope (or at module level): a parameter
 * annotation, the binding's annotation, else its single value. */
static bool binding_type(pkf_ctx *c, TSNode scope, const char *nm, pki_type *out, int depth) {
  binding b = {0};
  TSNode pann = param_annotation(c, scope, nm);
  if (!ts_node_is_null(pann))
    return pkf_type_quiet(c, pann, false, out);
  if (!ts_node_is_null(scope))
    bindings(c, pkf_field(c, scope, PKF_F_BODY), nm, &b);
  if (b.count == 0) {
    bindings(c, c->root, nm, &b);
    scope = (TSNode){0};
  }
  if (!ts_node_is_null(b.ann) && pkf_type_quiet(c, b.ann, false, out))
    return true; /* an annotation wins (M: int = values[1]) */
  if (b.range_loops && b.count == 2 * b.range_loops) { /* only range() loops bind it */
    *out = pki_int_type;
    return true;
  }
  return b.count == 1 && !ts_node_is_null(b.val) && expr_type(c, scope, b.val, out, depth + 1);
}

static bool name_type(pkf_ctx *c, TSNode scope, TSNode id, pki_type *out, int depth) {
  return binding_type(c, scope, pkf_text(c, id), out, depth);
}

/* self.x: its (single) assignment in the methods of the enclosing class. */
static bool self_attr_type(pkf_ctx *c, TSNode attr, pki_type *out, int depth) {
  TSNode cls = attr;
  while (!ts_node_is_null(cls) && !pkf_type_is(c, cls, PKF_N_CLASS_DEFINITION))
    cls = pkf_parent(c, cls);
  if (ts_node_is_null(cls))
    return false;
  const char *nm = pkf_text(c, pkf_field(c, attr, PKF_F_ATTRIBUTE));
  pkf_nodes body = pkf_children(c, pkf_field(c, cls, PKF_F_BODY));
  TSNode val = {0}, ann = {0}, where = {0};
  int count = 0;
  for (uint32_t i = 0; i < body.n; i++) {
    TSNode def = body.v[i];
    if (pkf_type_is(c, def, PKF_N_DECORATED_DEFINITION))
      def = pkf_field(c, def, PKF_F_DEFINITION);
    if (!pkf_type_is(c, def, PKF_N_FUNCTION_DEFINITION))
      continue;
    pkf_stack st = {0};
    pkf_push(c, &st, pkf_field(c, def, PKF_F_BODY));
    while (st.n) {
      TSNode n = st.v[--st.n];
      if (pkf_type_is(c, n, PKF_N_ASSIGNMENT)) {
        TSNode l = pkf_field(c, n, PKF_F_LEFT);
        if (pkf_type_is(c, l, PKF_N_ATTRIBUTE) &&
            pkf_is(c, pkf_field(c, l, PKF_F_OBJECT), "self") &&
            pkf_is(c, pkf_field(c, l, PKF_F_ATTRIBUTE), nm)) {
          count++;
          val = pkf_field(c, n, PKF_F_RIGHT);
          where = def;
          if (!ts_node_is_null(pkf_field(c, n, PKF_F_TYPE)))
            ann = pkf_field(c, n, PKF_F_TYPE);
        }
      }
      pkf_nodes kids = pkf_named_children(c, n);
      for (uint32_t j = 0; j < kids.n; j++) {
        TSNode ch = kids.v[j];
        if (!pkf_type_is(c, ch, PKF_N_FUNCTION_DEFINITION) &&
            !pkf_type_is(c, ch, PKF_N_CLASS_DEFINITION))
          pkf_push(c, &st, ch);
      }
    }
  }
  if (!ts_node_is_null(ann) && pkf_type_quiet(c, ann, false, out))
    return true;
  return count == 1 && !ts_node_is_null(val) && expr_type(c, where, val, out, depth + 1);
}

/* Rank of a shape argument: an int, a name, or a list/tuple of them. */
static int shape_rank(pkf_ctx *c, TSNode sh) {
  if (pkf_type_is(c, sh, PKF_N_LIST) || pkf_type_is(c, sh, PKF_N_TUPLE))
    return (int)pkf_named_child_count(c, sh);
  if (pkf_type_is(c, sh, PKF_N_PARENTHESIZED_EXPRESSION))
    return 1;
  return 1;
}

/* pk.zeros/ones/empty/full(shape, ..., dtype=...), numpy's zeros/ones/empty/
 * full(shape, dtype=...), arange(n) (int64), random.rand(d0, ...) (float64). */
static bool array_ctor_type(pkf_ctx *c, TSNode call, pki_type *out) {
  TSNode fn = pkf_field(c, call, PKF_F_FUNCTION);
  if (!pkf_type_is(c, fn, PKF_N_ATTRIBUTE))
    return false;
  TSNode obj = pkf_field(c, fn, PKF_F_OBJECT);
  bool pk = pkf_alias_is(c, obj, PKF_AL_PK), np = pkf_alias_is(c, obj, PKF_AL_NP);
  bool np_random = pkf_type_is(c, obj, PKF_N_ATTRIBUTE) &&
                   pkf_alias_is(c, pkf_field(c, obj, PKF_F_OBJECT), PKF_AL_NP) &&
                   pkf_is(c, pkf_field(c, obj, PKF_F_ATTRIBUTE), "random");
  TSNode a = pkf_field(c, fn, PKF_F_ATTRIBUTE);
  pkf_nodes args = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  if (np_random && (pkf_is(c, a, "rand") || pkf_is(c, a, "randn") || pkf_is(c, a, "random"))) {
    int r = pkf_is(c, a, "random") ? (args.n ? shape_rank(c, args.v[0]) : 0) : (int)args.n;
    if (r < 1 || r > 8)
      return false;
    *out = pki_view(PKI_F64, r, PKI_LAYOUT_DEFAULT);
    return true;
  }
  if (!pk && !np)
    return false;
  bool arange = np && pkf_is(c, a, "arange");
  if (!arange && !pkf_is(c, a, "zeros") && !pkf_is(c, a, "ones") && !pkf_is(c, a, "empty") &&
      !pkf_is(c, a, "full"))
    return false;
  if (args.n < 1 || pkf_type_is(c, args.v[0], PKF_N_KEYWORD_ARGUMENT))
    return false;
  pki_kind elem = arange ? PKI_I64 : PKI_F64;
  TSNode dt = {0};
  for (uint32_t i = 1; i < args.n; i++)
    if (pkf_type_is(c, args.v[i], PKF_N_KEYWORD_ARGUMENT) &&
        pkf_is(c, pkf_field(c, args.v[i], PKF_F_NAME), "dtype"))
      dt = pkf_field(c, args.v[i], PKF_F_VALUE);
  if (arange) {
    for (uint32_t i = 0; i < args.n; i++)
      if (pkf_type_is(c, args.v[i], PKF_N_FLOAT))
        elem = PKI_F64;
  } else if (ts_node_is_null(dt) && args.n >= 2 &&
             !pkf_type_is(c, args.v[1], PKF_N_KEYWORD_ARGUMENT) && !pkf_is(c, a, "full")) {
    dt = args.v[1];
  }
  if (!ts_node_is_null(dt)) {
    pki_type e;
    if (!pkf_type_quiet(c, dt, true, &e) || !pki_is_numeric(e.kind))
      return false;
    elem = e.kind;
  }
  int rank = arange ? 1 : shape_rank(c, args.v[0]);
  if (rank < 1 || rank > 8)
    return false;
  *out = pki_view(elem, rank, PKI_LAYOUT_DEFAULT);
  return true;
}

/* pk.View([d0, ...], dtype) / pk.View([n], dtype=int) */
static bool view_type(pkf_ctx *c, TSNode call, pki_type *out) {
  pkf_nodes a = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  if (a.n < 1 || !pkf_type_is(c, a.v[0], PKF_N_LIST))
    return false;
  int rank = (int)pkf_named_child_count(c, a.v[0]);
  if (rank < 1 || rank > 8)
    return false;
  TSNode dt = {0};
  pki_layout lay = PKI_LAYOUT_DEFAULT;
  for (uint32_t i = 1; i < a.n; i++) {
    if (pkf_type_is(c, a.v[i], PKF_N_KEYWORD_ARGUMENT)) {
      TSNode k = pkf_field(c, a.v[i], PKF_F_NAME), v = pkf_field(c, a.v[i], PKF_F_VALUE);
      if (pkf_is(c, k, "dtype"))
        dt = v;
      if (pkf_is(c, k, "layout") && pkf_type_is(c, v, PKF_N_ATTRIBUTE)) {
        TSNode leaf = pkf_field(c, v, PKF_F_ATTRIBUTE);
        lay = pkf_is(c, leaf, "LayoutLeft") ? PKI_LAYOUT_LEFT
              : pkf_is(c, leaf, "LayoutRight") ? PKI_LAYOUT_RIGHT : lay;
      }
    } else if (i == 1) {
      dt = a.v[i];
    }
  }
  pki_type e = pki_float_type;
  if (!ts_node_is_null(dt) && pkf_type_quiet(c, dt, true, &e) && e.kind == PKI_CLASS &&
      rank <= 3) { /* pk.View([n], C, layout=...): a View of classtype values, either layout */
    *out = pki_view(PKI_CLASS, rank, PKI_LAYOUT_DEFAULT);
    out->cls = e.cls;
    return true;
  }
  if (!ts_node_is_null(dt) && (!pkf_type_quiet(c, dt, true, &e) || !pki_is_numeric(e.kind)))
    return false; /* a failed guess is no error */
  *out = pki_view(e.kind, rank, rank > 1 ? lay : PKI_LAYOUT_DEFAULT);
  return true;
}

/* Joins two inferred types of one name: equal, or int/float mixed (float). */
static bool join_types(pki_type *acc, pki_type t, bool first) {
  if (first || pki_type_eq(*acc, t)) {
    *acc = t;
    return true;
  }
  if (pki_is_numeric(acc->kind) && pki_is_numeric(t.kind) && acc->kind != PKI_BOOL &&
      t.kind != PKI_BOOL && (pki_is_float(acc->kind) || pki_is_float(t.kind))) {
    *acc = pki_float_type;
    return true;
  }
  return false;
}

/* math.pi / np.pi / pi imported from math (fn false), or a math function
 * giving a float: math.sqrt, np.sqrt, sqrt imported from math (fn true). */
static bool math_float(pkf_ctx *c, TSNode n, bool fn) {
  const char *name = NULL;
  if (pkf_type_is(c, n, PKF_N_ATTRIBUTE)) {
    TSNode obj = pkf_field(c, n, PKF_F_OBJECT);
    if (pkf_alias_is(c, obj, PKF_AL_MATH) || pkf_alias_is(c, obj, PKF_AL_NP))
      name = pkf_text(c, pkf_field(c, n, PKF_F_ATTRIBUTE));
  } else {
    const pkf_alias *a = pkf_alias_find(c, n);
    name = a && a->kind == PKF_AL_MATHNAME ? a->orig : NULL;
  }
  double v;
  if (!name)
    return false;
  if (!fn)
    return pkf_math_const(name, &v);
  int b = pki_builtin_lookup(name);
  return b > PKI_BUILTIN_MAX && b != PKI_BUILTIN_ROUND && b != PKI_BUILTIN_ISNAN &&
         b != PKI_BUILTIN_SIGNBIT &&
         b != PKI_BUILTIN_ISINF && b != PKI_BUILTIN_ISFINITE && b != PKI_BUILTIN_FLOOR &&
         b != PKI_BUILTIN_CEIL && b != PKI_BUILTIN_TRUNC;
}

/* An operand of `/`: 2 a number (known, or a pk.parallel_reduce result), 1
 * of unknown type, 0 known not to be a number (a View). */
static int division_operand(pkf_ctx *c, TSNode scope, TSNode e, int depth) {
  TSNode x = e;
  while (pkf_type_is(c, x, PKF_N_PARENTHESIZED_EXPRESSION))
    x = pkf_named_child(c, x, 0);
  if (pkf_type_is(c, x, PKF_N_CALL) &&
      pk_attr_is(c, pkf_field(c, x, PKF_F_FUNCTION), "parallel_reduce"))
    return 2;
  pki_type t;
  if (!expr_type(c, scope, e, &t, depth + 1))
    return 1;
  return pki_is_numeric(t.kind) ? 2 : 0;
}

static bool expr_type(pkf_ctx *c, TSNode scope, TSNode e, pki_type *out, int depth) {
  if (depth > 8)
    return false;
  pkf_ntype t = pkf_ntype_of(c, e);
  if (t == PKF_N_BINARY_OPERATOR) {
    pki_type a, b;
    TSNode l = pkf_field(c, e, PKF_F_LEFT), r = pkf_field(c, e, PKF_F_RIGHT);
    if (pkf_is(c, pkf_field(c, e, PKF_F_OPERATOR), "/")) { /* true division: a float */
      int nl = division_operand(c, scope, l, depth), nr = division_operand(c, scope, r, depth);
      if (nl > 0 && nr > 0 && (nl == 2 || nr == 2)) { /* a number, the other not a View */
        *out = pki_float_type; /* (`DT = 0.5 / pk.parallel_reduce(...)`, `0.5 / smax`) */
        return true;
      }
    }
    if (!expr_type(c, scope, l, &a, depth + 1) || !expr_type(c, scope, r, &b, depth + 1) ||
        !pki_is_numeric(a.kind) || !pki_is_numeric(b.kind))
      return false;
    bool fl = pki_is_float(a.kind) || pki_is_float(b.kind) ||
              pkf_is(c, pkf_field(c, e, PKF_F_OPERATOR), "/");
    *out = fl ? pki_float_type : pki_int_type;
    return true;
  }
  if (t == PKF_N_INTEGER) *out = pki_int_type;
  else if (t == PKF_N_FLOAT) *out = pki_float_type;
  else if (t == PKF_N_TRUE || t == PKF_N_FALSE) *out = pki_bool_type;
  else if (t == PKF_N_UNARY_OPERATOR)
    return expr_type(c, scope, pkf_field(c, e, PKF_F_ARGUMENT), out, depth) &&
           pki_is_numeric(out->kind);
  else if (t == PKF_N_PARENTHESIZED_EXPRESSION)
    return expr_type(c, scope, pkf_named_child(c, e, 0), out, depth);
  else if (t == PKF_N_IDENTIFIER && math_float(c, e, false)) *out = pki_float_type;
  else if (t == PKF_N_IDENTIFIER)
    return name_type(c, scope, e, out, depth);
  else if (t == PKF_N_ATTRIBUTE && pkf_is(c, pkf_field(c, e, PKF_F_OBJECT), "self"))
    return self_attr_type(c, e, out, depth);
  else if (t == PKF_N_ATTRIBUTE && math_float(c, e, false)) *out = pki_float_type;
  else if (t == PKF_N_CALL) {
    TSNode fn = pkf_field(c, e, PKF_F_FUNCTION);
    if (pkf_is(c, fn, "int") || pkf_is(c, fn, "len")) *out = pki_int_type;
    else if (pkf_is(c, fn, "float") || math_float(c, fn, true)) *out = pki_float_type;
    else if (pk_attr_is(c, fn, "View")) return view_type(c, e, out);
    else return array_ctor_type(c, e, out);
  } else
    return false;
  return true;
}

static void site(pkf_ctx *c, TSNode call, infer *in) {
  TSNode fn = pkf_field(c, call, PKF_F_FUNCTION);
  if (!pk_attr_is(c, fn, "parallel_for") && !pk_attr_is(c, fn, "parallel_reduce") &&
      !pk_attr_is(c, fn, "parallel_scan"))
    return;
  pkf_nodes a = pkf_children(c, pkf_field(c, call, PKF_F_ARGUMENTS));
  bool mine = false;
  TSNode val = {0};
  for (uint32_t i = 0; i < a.n; i++) {
    if (pkf_type_is(c, a.v[i], PKF_N_IDENTIFIER) && pkf_is(c, a.v[i], in->kernel))
      mine = true;
    else if (pkf_type_is(c, a.v[i], PKF_N_KEYWORD_ARGUMENT) &&
             pkf_is(c, pkf_field(c, a.v[i], PKF_F_NAME), in->pname))
      val = pkf_field(c, a.v[i], PKF_F_VALUE);
  }
  if (!mine || ts_node_is_null(val))
    return;
  pki_type t;
  if (!expr_type(c, pkf_enclosing_def(c, call), val, &t, 0)) {
    in->failed = true;
    return;
  }
  if (in->found++ && !pki_type_eq(t, in->t))
    in->failed = true;
  in->t = t;
}

static void walk(pkf_ctx *c, TSNode n, infer *in) {
  if (pkf_type_is(c, n, PKF_N_CALL))
    site(c, n, in);
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++)
    walk(c, kids.v[i], in);
}

bool pkf_infer_param(pkf_ctx *c, const char *kernel, const char *pname, pki_type *out) {
  if (ts_node_is_null(c->root))
    return false;
  infer in = {.kernel = kernel, .pname = pname};
  walk(c, c->root, &in);
  if (!in.found || in.failed)
    return false;
  *out = in.t;
  return true;
}

/* Assignments to name in the defs that declare it `global` (the module body
 * itself is walked by the caller). */
static bool global_writes(pkf_ctx *c, TSNode n, const char *name, pki_type *t, bool *first,
                          int depth) {
  if (depth > 64)
    return true;
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++) {
    TSNode ch = kids.v[i];
    if (!pkf_type_is(c, ch, PKF_N_FUNCTION_DEFINITION)) {
      if (!global_writes(c, ch, name, t, first, depth + 1))
        return false;
      continue;
    }
    bool declares = false;
    TSNode body = pkf_field(c, ch, PKF_F_BODY);
    pkf_nodes st = pkf_children(c, body);
    for (uint32_t j = 0; j < st.n; j++)
      if (pkf_type_is(c, st.v[j], PKF_N_GLOBAL_STATEMENT)) {
        pkf_nodes names = pkf_children(c, st.v[j]);
        for (uint32_t q = 0; q < names.n; q++)
          declares |= same_name(c, names.v[q], name);
      }
    if (declares) { /* every value the function binds to it joins the type */
      binding b = {.join = t, .first = first, .scope = ch};
      bindings(c, body, name, &b);
      if (b.bad)
        return false;
    }
    if (!global_writes(c, body, name, t, first, depth + 1))
      return false;
  }
  return true;
}

/* Assignments to name at module level (blocks included, defs and classes
 * not), joined into *t; false if one cannot be typed or they disagree. */
static bool module_writes(pkf_ctx *c, TSNode n, const char *name, pki_type *t, bool *first,
                          int depth) {
  if (depth > 64)
    return false;
  pkf_nodes kids = pkf_named_children(c, n);
  for (uint32_t i = 0; i < kids.n; i++) {
    TSNode ch = kids.v[i];
    if (pkf_type_is(c, ch, PKF_N_FUNCTION_DEFINITION) ||
        pkf_type_is(c, ch, PKF_N_CLASS_DEFINITION) ||
        pkf_type_is(c, ch, PKF_N_DECORATED_DEFINITION))
      continue;
    if (pkf_type_is(c, ch, PKF_N_ASSIGNMENT) || pkf_type_is(c, ch, PKF_N_AUGMENTED_ASSIGNMENT)) {
      TSNode l = pkf_field(c, ch, PKF_F_LEFT);
      bool hit = same_name(c, l, name);
      TSNode val = pkf_field(c, ch, PKF_F_RIGHT), ann = pkf_field(c, ch, PKF_F_TYPE);
      if (!hit && (pkf_type_is(c, l, PKF_N_PATTERN_LIST) || pkf_type_is(c, l, PKF_N_TUPLE_PATTERN)))
        val = unpacked(c, l, val, name, &hit);
      if (hit) {
        pki_type x;
        bool ok = !ts_node_is_null(ann) ? pkf_type_quiet(c, ann, false, &x)
                  : !ts_node_is_null(val) && expr_type(c, (TSNode){0}, val, &x, 0);
        if (!ok || !join_types(t, x, *first))
          return false;
        *first = false;
      }
    }
    if (pkf_type_is(c, ch, PKF_N_FOR_STATEMENT) && same_name(c, pkf_field(c, ch, PKF_F_LEFT), name))
      return false;
    if (!module_writes(c, ch, name, t, first, depth + 1))
      return false;
  }
  return true;
}

bool pkf_infer_global(pkf_ctx *c, const char *name, pki_type *out) {
  if (ts_node_is_null(c->root))
    return false;
  pki_type t = pki_void_type;
  bool first = true;
  if (!module_writes(c, c->root, name, &t, &first, 0) || first ||
      !global_writes(c, c->root, name, &t, &first, 0))
    return false;
  if (t.kind != PKI_VIEW && !pki_is_numeric(t.kind))
    return false;
  *out = t;
  return true;
}

bool pkf_infer_name(pkf_ctx *c, TSNode scope, const char *name, pki_type *out) {
  return binding_type(c, scope, name, out, 0) &&
         (out->kind == PKI_VIEW || pki_is_numeric(out->kind));
}
