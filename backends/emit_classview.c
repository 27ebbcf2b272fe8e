/*
 * emit_classview.c - Views of @pk.classtype values (docs/DIALECT.md 3.4):
 * per classtype C that some kernel takes a View of, C_aos (a Kokkos View of
 * the struct), C_ref (element i of an SoA View: the fields as references, with
 * C's methods) and C_soa (one View per field; operator() gives a C_ref), and
 * bind_class_view for both. A classtype field nests (C_ref holds its
 * proxy, C_soa its accessor); a List field is a C array of the struct and,
 * for SoA, one View per component behind pkc::array_ref. Kernels taking such
 * a View receive its scalar fields depth first ("pos.x", "v[0]"), the field
 * table's order. Kernels taking such a View are functor templates
 * instantiated per layout; the C entry point picks the instantiation from the
 * argument's layout (no layout dispatch inside kernels). Also the methods of
 * classtypes and the parameters of functions that take classtype values.
 */
#include <stdio.h>
#include <string.h>

#include "pkb_priv.h"

static bool func_takes(const pki_func *f, const pki_entity *cls) {
  for (int k = 0; k < f->nparams; k++)
    if (pki_is_class_view(f->params[k]->type) && (!cls || f->params[k]->type.cls == cls))
      return true;
  return false;
}

/* Some kernel of m takes a View of classtype cls values. */
static bool class_viewed(const pki_module *m, const pki_entity *cls) {
  for (int i = 0; i < m->nentities; i++)
    for (int k = 0; k < m->entities[i]->nfuncs; k++)
      if (func_takes(m->entities[i]->funcs[k], cls))
        return true;
  return false;
}

/* outer is cls or holds a field of classtype cls, at any depth. */
static bool class_holds(const pki_entity *outer, const pki_entity *cls, int depth) {
  if (outer == cls)
    return true;
  for (int i = 0; depth < PKI_MAX_CLASS_NESTING && i < outer->nmembers; i++) {
    pki_type t = outer->members[i]->type;
    if (t.kind == PKI_CLASS && t.cls && class_holds(t.cls, cls, depth + 1))
      return true;
  }
  return false;
}

/* Values of classtype cls lie in a View of m's kernels: its elements, or a
 * classtype field of them (nested: Body.pos of a View of Body). */
static bool class_in_view(const pki_module *m, const pki_entity *cls) {
  for (int i = 0; i < m->nentities; i++) {
    const pki_entity *e = m->entities[i];
    if (e->kind == PKI_ENT_CLASSTYPE && class_holds(e, cls, 1) && class_viewed(m, e))
      return true;
  }
  return false;
}

/* Device-function parameter p is a classtype f changes whose class some View
 * holds: a forwarding reference of template type fparam_tname (binds a
 * local and an SoA element's proxy alike). */
static bool fparam_template(const pki_module *m, const pki_func *f, const pki_var *p) {
  return p->type.kind == PKI_CLASS && p->type.cls && pki_param_written(f, p) &&
         class_in_view(m, p->type.cls);
}

/* A View parameter of scalars: its type is the argument's (template type
 * fparam_tname, by value as Kokkos passes Views), so that a LayoutLeft
 * View, a strided subview, a scratch View or an Atomic View passes as it is
 * (a fixed pkc::View<T *, DefaultLayout> dropped the Atomic trait, and
 * Kokkos refused or aborted the others' conversion). */
static bool fparam_view(const pki_var *p) {
  return p->type.kind == PKI_VIEW && !pki_is_class_view(p->type);
}

static const char *fparam_tname(pki_arena *a, const pki_var *p) {
  return pki_sprintf(a, "%s_%s", fparam_view(p) ? "pkc_V" : "pkc_T", pkb_ident(a, p->name));
}

void pkb_template_head(pkb_ctx *c, const pki_func *f) {
  int n = 0;
  for (int i = 0; i < f->nparams; i++) {
    if (!fparam_template(c->m, f, f->params[i]) && !fparam_view(f->params[i]))
      continue;
    const char *t = fparam_tname(c->m->arena, f->params[i]);
    if (n++)
      pkb_putf(c->b, ", class %s", t);
    else
      pkb_begin(c->b, "template <class %s", t);
  }
  if (n)
    pkb_put(c->b, ">\n");
}

bool pkb_class_view_default(const pki_var *v) {
  return pki_is_class_view(v->type) && v->type.layout == PKI_LAYOUT_DEFAULT;
}

const char *pkb_class_view_tname(pki_arena *a, const pki_var *v) {
  return pki_sprintf(a, "pkc_view_%s", pkb_ident(a, v->name));
}

/* ------------------------------------------------------------ the types */

static const char *cname(pkb_ctx *c, const pki_entity *e) { return pkb_ident(c->m->arena, e->name); }

/* One line "  <fmt>" per field f (fmt takes name, [k], name, [k]), one per
 * component of a List field (C arrays are not assigned whole). */
static void copy_field(pkb_ctx *c, const pki_var *f, const char *fmt) {
  const char *id = pkb_ident(c->m->arena, f->name);
  int n = f->type.kind == PKI_ARRAY ? f->type.length : 0;
  for (int k = 0; k < (n ? n : 1); k++) {
    const char *ix = n ? pki_sprintf(c->m->arena, "[%d]", k) : "";
    pkb_begin(c->b, "  ");
    pkb_putf(c->b, fmt, id, ix, id, ix);
    pkb_put(c->b, "\n");
  }
}

static void ref_struct(pkb_ctx *c, const pki_entity *e) {
  pkb_buf *b = c->b;
  const char *n = cname(c, e);
  pkb_line(b, "// Element i of an SoA View of %s: its fields as references (a classtype "
              "field as its proxy), and %s's methods.", n, n);
  pkb_line(b, "struct %s_ref {", n);
  b->indent++;
  for (int i = 0; i < e->nmembers; i++) {
    const pki_var *f = e->members[i];
    if (f->type.kind == PKI_CLASS) /* a nested classtype: its proxy */
      pkb_begin(b, "%s_ref ", cname(c, f->type.cls));
    else if (f->type.kind == PKI_ARRAY) /* a List field: its components */
      pkb_begin(b, "pkc::array_ref<%s, %d> ", pkb_scalar_ctype(f->type.elem), f->type.length);
    else
      pkb_begin(b, "%s &", pkb_scalar_ctype(f->type.kind));
    pkb_put_ident(b, f->name);
    pkb_put(b, ";\n");
  }
  pkb_nl(b);
  pkb_line(b, "KOKKOS_FORCEINLINE_FUNCTION operator %s() const {", n);
  pkb_line(b, "  %s pkc_v;", n);
  for (int i = 0; i < e->nmembers; i++)
    copy_field(c, e->members[i], "pkc_v.%s%s = %s%s;");
  pkb_line(b, "  return pkc_v;");
  pkb_line(b, "}");
  /* pkc_v: no field is called so (the pkc_ prefix is pkc's, docs/NAMING.md) */
  static const char *const from[] = {"const %s &pkc_v", "const %s_ref &pkc_v"};
  for (int k = 0; k < 2; k++) {
    pkb_begin(b, "KOKKOS_FORCEINLINE_FUNCTION const %s_ref &operator=(", n);
    pkb_putf(b, from[k], n);
    pkb_put(b, ") const {\n");
    for (int i = 0; i < e->nmembers; i++)
      copy_field(c, e->members[i], "%s%s = pkc_v.%s%s;");
    pkb_line(b, "  return *this;");
    pkb_line(b, "}");
  }
  for (int i = 0; i < e->nfuncs; i++)
    if (!e->funcs[i]->is_ctor)
      pkb_class_method(c, e, e->funcs[i], PKB_IN_CLASS);
  b->indent--;
  pkb_line(b, "};");
  pkb_nl(b);
}

/* The braced initializer of a C_ref over the fields of struct value `at`
 * (s, s.pos, ...): {s.pos.x, s.pos.y}, nested as the classtypes nest. */
static void put_ref_init(pkb_ctx *c, const pki_entity *e, const char *at) {
  pkb_put(c->b, "{");
  for (int i = 0; i < e->nmembers; i++) {
    const pki_var *f = e->members[i];
    const char *p = pki_sprintf(c->m->arena, "%s.%s", at, pkb_ident(c->m->arena, f->name));
    if (i)
      pkb_put(c->b, ", ");
    if (f->type.kind == PKI_CLASS)
      put_ref_init(c, f->type.cls, p);
    else if (f->type.kind == PKI_ARRAY)
      for (int k = 0; k < f->type.length; k++)
        pkb_putf(c->b, "%s&%s[%d]%s", k ? ", " : "{{", p, k,
                 k == f->type.length - 1 ? "}}" : "");
    else
      pkb_put(c->b, p);
  }
  pkb_put(c->b, "}");
}

static void soa_struct(pkb_ctx *c, const pki_entity *e) {
  pkb_buf *b = c->b;
  const char *n = cname(c, e);
  pkb_line(b, "// A View of %s of rank R, struct of arrays: one View per field (a classtype "
              "field: its own struct of arrays).", n);
  pkb_line(b, "template <int R>");
  pkb_line(b, "struct %s_soa {", n);
  b->indent++;
  for (int i = 0; i < e->nmembers; i++) {
    const pki_var *f = e->members[i];
    if (f->type.kind == PKI_CLASS)
      pkb_begin(b, "%s_soa<R> ", cname(c, f->type.cls));
    else
      pkb_begin(b, "pkc::View<typename pkc::ptrs<%s, R>::type, Kokkos::LayoutRight> ",
                pkb_scalar_ctype(f->type.kind == PKI_ARRAY ? f->type.elem : f->type.kind));
    pkb_put_ident(b, f->name);
    if (f->type.kind == PKI_ARRAY) /* a List field: one View per component */
      pkb_putf(b, "[%d]", f->type.length);
    pkb_put(b, ";\n");
  }
  pkb_nl(b);
  /* forced: g++ otherwise keeps a functor's operator() doing several p(i) out
   * of the OpenMP loop (1.3-1.6x slower than one View per field) */
  pkb_line(b, "template <class... I>");
  pkb_line(b, "KOKKOS_FORCEINLINE_FUNCTION %s_ref operator()(const I... pkc_i) const {", n);
  pkb_begin(b, "  return {");
  for (int i = 0; i < e->nmembers; i++) {
    const pki_var *f = e->members[i];
    const char *id = pkb_ident(c->m->arena, f->name);
    pkb_put(b, i ? ", " : "");
    if (f->type.kind != PKI_ARRAY)
      pkb_putf(b, "%s(pkc_i...)", id);
    for (int k = 0; f->type.kind == PKI_ARRAY && k < f->type.length; k++)
      pkb_putf(b, "%s&%s[%d](pkc_i...)%s", k ? ", " : "{{", id, k,
               k == f->type.length - 1 ? "}}" : "");
  }
  pkb_put(b, "};\n");
  pkb_line(b, "}");
  pkb_line(b, "#if defined(PKC_BACKEND_SERIAL) || defined(PKC_BACKEND_OPENMP)");
  pkb_line(b, "%s_ref sink() const {  // --bounds-check: what an index past the extent uses", n);
  pkb_line(b, "  %s &s = pkc::bounds_sink<%s>();", n, n);
  pkb_begin(b, "  return ");
  put_ref_init(c, e, "s");
  pkb_put(b, ";\n");
  pkb_line(b, "}");
  pkb_line(b, "#endif");
  pkb_line(b, "KOKKOS_INLINE_FUNCTION size_t extent(const int pkc_d) const { "
              "return %s%s.extent(pkc_d); }",
           pkb_ident(c->m->arena, e->members[0]->name),
           e->members[0]->type.kind == PKI_ARRAY ? "[0]" : "");
  pkb_line(b, "template <class G>");
  pkb_line(b, "void for_each_field(const G &g) const {  // each field's View (pkc::apart)");
  b->indent++;
  for (int i = 0; i < e->nmembers; i++) {
    const pki_var *f = e->members[i];
    const char *id = pkb_ident(c->m->arena, f->name);
    if (f->type.kind == PKI_CLASS)
      pkb_line(b, "%s.for_each_field(g);", id);
    else if (f->type.kind == PKI_ARRAY)
      pkb_line(b, "for (const auto &v : %s) g(v);", id);
    else
      pkb_line(b, "g(%s);", id);
  }
  b->indent--;
  pkb_line(b, "}");
  b->indent--;
  pkb_line(b, "};");
  pkb_nl(b);
}

/* Calls leaf(c, e, path, f, k, data) for each scalar field f of classtype
 * e, nested classtypes included, depth first: path is its C++ member path
 * (pos.x), k its index among the leaves (the pkc_class_view field order). */
typedef void (*leaf_fn)(pkb_ctx *c, const char *path, const char *name, const pki_var *f, int k,
                        const void *data);

static int each_leaf(pkb_ctx *c, const pki_entity *e, const char *path, const char *name, int k,
                     leaf_fn fn, const void *data) {
  for (int i = 0; i < e->nmembers; i++) {
    const pki_var *f = e->members[i];
    const char *id = pkb_ident(c->m->arena, f->name);
    const char *p = path ? pki_sprintf(c->m->arena, "%s.%s", path, id) : id;
    const char *nm = name ? pki_sprintf(c->m->arena, "%s.%s", name, f->name) : f->name;
    if (f->type.kind == PKI_CLASS)
      k = each_leaf(c, f->type.cls, p, nm, k, fn, data);
    else if (f->type.kind == PKI_ARRAY) /* a List field: one leaf per component */
      for (int j = 0; j < f->type.length; j++)
        fn(c, pki_sprintf(c->m->arena, "%s[%d]", p, j), pki_sprintf(c->m->arena, "%s[%d]", nm, j),
           f, k++, data);
    else
      fn(c, p, nm, f, k++, data);
  }
  return k;
}

static void count_leaf(pkb_ctx *c, const char *path, const char *name, const pki_var *f, int k,
                       const void *data) {}

static int nleaves(pkb_ctx *c, const pki_entity *e) {
  return each_leaf(c, e, NULL, NULL, 0, count_leaf, NULL);
}

static void field_row(pkb_ctx *c, const char *path, const char *name, const pki_var *f, int k,
                      const void *data) {
  const char *ct = pkb_scalar_ctype(f->type.kind == PKI_ARRAY ? f->type.elem : f->type.kind);
  pkb_begin(c->b, "      {");
  pkb_put_cstr(c->b, name);
  pkb_putf(c->b, ", offsetof(%s, %s), pkc::dtype<%s>::c, pkc::dtype<%s>::b},\n",
           (const char *)data, path, ct, ct);
}

static void bind_row(pkb_ctx *c, const char *path, const char *name, const pki_var *f, int k,
                     const void *data) {
  pkb_line(c->b, "  if (!pkc::bind_soa_field(v.%s, arg, %d, %s_fields(), kernel, name, err, "
                 "errlen)) return false;", path, k, (const char *)data);
}

static void field_table(pkb_ctx *c, const pki_entity *e) {
  pkb_buf *b = c->b;
  const char *n = cname(c, e);
  pkb_line(b, "// The fields of %s as the C entry points receive them (pkc_abi.h: pkc_class_view;",
           n);
  pkb_line(b, "// a classtype field's fields in its place).");
  pkb_line(b, "inline const pkc::field_desc *%s_fields() {", n);
  pkb_line(b, "  static const pkc::field_desc f[] = {");
  each_leaf(c, e, NULL, NULL, 0, field_row, n);
  pkb_line(b, "  };");
  pkb_line(b, "  return f;");
  pkb_line(b, "}");
  pkb_nl(b);
}

/* Bit r of the result: some kernel of m takes a rank-r View of cls values. */
static unsigned ranks_in_view(const pki_module *m, const pki_entity *cls) {
  unsigned r = 0;
  for (int i = 0; i < m->nentities; i++)
    for (int k = 0; k < m->entities[i]->nfuncs; k++)
      for (int j = 0; j < m->entities[i]->funcs[k]->nparams; j++) {
        pki_type t = m->entities[i]->funcs[k]->params[j]->type;
        if (pki_is_class_view(t) && t.cls == cls && t.rank > 0 && t.rank < 32)
          r |= 1u << t.rank;
      }
  return r;
}

static void binders(pkb_ctx *c, const pki_entity *e) {
  pkb_buf *b = c->b;
  const char *n = cname(c, e);
  unsigned ranks = ranks_in_view(c->m, e);
  for (int r = 1; r < 32; r++) {
    if (!(ranks >> r & 1))
      continue;
    pkb_line(b, "inline bool bind_class_view(%s_aos<%d> &v, const void *arg, const char *kernel,",
             n, r);
    pkb_line(b, "                            const char *name, char *err, size_t errlen) {");
    pkb_line(b, "  return pkc::bind_aos<%s>(v, arg, %s_fields(), %d, \"%s\", kernel, name, err, "
                "errlen);", n, n, nleaves(c, e), n);
    pkb_line(b, "}");
  }
  pkb_line(b, "template <int R>");
  pkb_line(b, "inline bool bind_class_view(%s_soa<R> &v, const void *arg, const char *kernel, "
              "const char *name,", n);
  pkb_line(b, "                            char *err, size_t errlen) {");
  pkb_line(b, "  const pkc_class_view *cv = static_cast<const pkc_class_view *>(arg);");
  pkb_line(b, "  if (!pkc::class_view_ok(cv, PKC_LAYOUT_SOA, R, %s_fields(), %d, \"%s\", kernel, "
              "name, err, errlen))", n, nleaves(c, e), n);
  pkb_line(b, "    return false;");
  each_leaf(c, e, NULL, NULL, 0, bind_row, n);
  pkb_line(b, "  return true;");
  pkb_line(b, "}");
  pkb_nl(b);
}

/* The proxy and accessor types of e, after those of the classtypes it
 * holds (done: per entity of the module, emitted already); the View alias,
 * field table and binders where a kernel takes a View of e. */
static void class_types(pkb_ctx *c, const pki_entity *e, bool *done) {
  const pki_module *m = c->m;
  for (int i = 0; i < m->nentities; i++) {
    if (m->entities[i] != e)
      continue;
    if (done[i])
      return;
    done[i] = true;
  }
  for (int i = 0; i < e->nmembers; i++)
    if (e->members[i]->type.kind == PKI_CLASS && e->members[i]->type.cls)
      class_types(c, e->members[i]->type.cls, done);
  const char *n = cname(c, e);
  bool viewed = class_viewed(m, e);
  pkb_line(c->b, "// ---- %s of @pk.classtype %s: AoS and SoA",
           viewed ? "Views" : "Fields in Views", e->name);
  if (viewed) {
    pkb_line(c->b, "// A View of %s of rank R, array of structs.", n);
    pkb_line(c->b, "template <int R>");
    pkb_line(c->b, "using %s_aos = pkc::View<typename pkc::ptrs<%s, R>::type, "
                   "Kokkos::LayoutRight>;", n, n);
    pkb_nl(c->b);
  }
  ref_struct(c, e);
  soa_struct(c, e);
  if (viewed) {
    field_table(c, e);
    binders(c, e);
  }
}

void pkb_class_view_types(pkb_ctx *c) {
  const pki_module *m = c->m;
  bool *done = pki_alloc(m->arena, sizeof(bool) * (size_t)(m->nentities + 1));
  memset(done, 0, sizeof(bool) * (size_t)(m->nentities + 1));
  for (int i = 0; i < m->nentities; i++) {
    const pki_entity *e = m->entities[i];
    if (e->kind == PKI_ENT_CLASSTYPE && e->nmembers && class_in_view(m, e))
      class_types(c, e, done);
  }
}

/* ------------------------------------------------------------ methods */

void pkb_put_fparam(pkb_ctx *c, const pki_func *f, const pki_var *v) {
  pkb_buf *b = c->b;
  if (fparam_template(c->m, f, v)) { /* a local or an SoA element's proxy */
    pkb_putf(b, "%s &&", fparam_tname(c->m->arena, v));
    pkb_put_ident(b, v->name);
    return;
  }
  if (fparam_view(v)) {
    pkb_putf(b, "%s ", fparam_tname(c->m->arena, v));
    pkb_put_ident(b, v->name);
    return;
  }
  pkb_put_type(b, v->type);
  /* a random state draws through a reference: the caller's state advances */
  bool ref = (v->type.kind == PKI_CLASS && pki_param_written(f, v)) ||
             v->type.kind == PKI_RAND_STATE;
  pkb_put(b, ref ? " &" : " ");
  pkb_put_ident(b, v->name);
}

void pkb_class_method(pkb_ctx *c, const pki_entity *e, const pki_func *f, pkb_method_mode mode) {
  pkb_buf *b = c->b;
  const char *cls = pkb_ident(c->m->arena, e->name);
  const char *qual = mode == PKB_OUT_OF_CLASS ? pki_sprintf(c->m->arena, "%s::", cls) : "";
  c->fn = f;
  pkb_nl(b);
  pkb_template_head(c, f);
  if (f->is_ctor) /* forced, as device functions (emit_functor.c) */
    pkb_begin(b, "KOKKOS_FORCEINLINE_FUNCTION %s%s(", qual, cls);
  else {
    pkb_begin(b, "KOKKOS_FORCEINLINE_FUNCTION ");
    pkb_put_type(b, f->ret);
    pkb_putf(b, " %s", qual);
    pkb_put_ident(b, f->name);
    pkb_put(b, "(");
  }
  for (int i = 0; i < f->nparams; i++) {
    if (i)
      pkb_put(b, ", ");
    pkb_put_fparam(c, f, f->params[i]);
  }
  bool cnst = !f->is_ctor && !pki_func_writes_self(f); /* a const member function */
  if (mode == PKB_DECL_ONLY) {
    pkb_put(b, cnst ? ") const;\n" : ");\n");
    c->fn = NULL;
    return;
  }
  pkb_put(b, cnst ? ") const {\n" : ") {\n");
  b->indent++;
  for (int i = 0; i < f->nparams; i++)
    pkb_void_unread(c, f, f->params[i]);
  pkb_emit_block(c, &f->body);
  if (!f->is_ctor)
    pkb_default_return(c, f);
  b->indent--;
  pkb_line(b, "}");
  pkb_restore_line(c);
  c->fn = NULL;
}
