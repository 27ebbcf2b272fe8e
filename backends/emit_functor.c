/*
 * emit_functor.c - the C++ translation unit: device functions
 * (KOKKOS_FORCEINLINE_FUNCTION), one functor per kernel-holding entity with a tag
 * and a tagged operator() per workunit, then wrappers and the descriptor.
 */
#include <stdio.h>
#include <string.h>

#include "access.h" /* the fusion plan */
#include "pkb_priv.h"

static void put_param(pkb_buf *b, const pki_var *v) {
  pkb_put_type(b, v->type);
  pkb_put(b, " ");
  pkb_put_ident(b, v->name);
  if (v->type.kind == PKI_ARRAY) /* a classtype's List field: double v[3] */
    pkb_putf(b, "[%d]", v->type.length);
}

/* "KOKKOS_FORCEINLINE_FUNCTION double f(double x)" (+ " const" for members).
 * Forced, as the workunits' operator(): g++'s size limits otherwise keep a
 * function called four times per point (the FORCE flux of bench/layout) out
 * of the loop, which then neither vectorizes nor keeps its scalars in
 * registers (2-3x slower on host backends); device compilers inline them
 * anyway. pki_check rejects recursion. */
static void device_signature(pkb_ctx *c, const pki_func *f, bool member) {
  pkb_template_head(c, f);
  pkb_begin(c->b, "KOKKOS_FORCEINLINE_FUNCTION ");
  pkb_put_type(c->b, f->ret);
  pkb_put(c->b, " ");
  pkb_put_ident(c->b, f->name);
  pkb_put(c->b, "(");
  for (int i = 0; i < f->nparams; i++) {
    if (i)
      pkb_put(c->b, ", ");
    pkb_put_fparam(c, f, f->params[i]);
  }
  pkb_put(c->b, member ? ") const" : ")");
}

static void device_function(pkb_ctx *c, const pki_func *f, bool member) {
  c->fn = f;
  pkb_line(c->b, "// @pk.function %s (line %u)", f->name, (unsigned)f->span.line);
  device_signature(c, f, member);
  pkb_put(c->b, " {\n");
  c->b->indent++;
  for (int i = 0; i < f->nparams; i++)
    pkb_void_unread(c, f, f->params[i]);
  pkb_emit_block(c, &f->body);
  pkb_default_return(c, f);
  c->b->indent--;
  pkb_line(c->b, "}");
  pkb_restore_line(c);
  c->fn = NULL;
}

static void put_index_params(pkb_ctx *c, const pki_func *f) {
  for (int i = 0; i < f->nindex; i++) {
    bool team = f->index[i]->type.kind == PKI_TEAM_MEMBER || f->policy == PKI_POLICY_TEAM;
    bool written = f->index[i]->access & PKI_ACCESS_WRITE; /* `i = ...` in the body */
    pkb_put(c->b, team ? ", const pkc::TeamMember &" : written ? ", int64_t " : ", const int64_t ");
    pkb_put_ident(c->b, f->index[i]->name);
  }
}

static void workunit(pkb_ctx *c, const pki_func *f) {
  pkb_buf *b = c->b;
  c->fn = f;
  const char *tag = pkb_tag_name(c->m->arena, f);
  static const char *const pat[] = {"parallel_for", "parallel_reduce", "parallel_scan"};
  if (!strncmp(f->name, "pkc_lambda_", 11)) /* frontend/host_lambda.c */
    pkb_line(b, "// the lambda of line %u (host code): %s", (unsigned)f->span.line,
             pat[f->pattern]);
  else
    pkb_line(b, "// @pk.workunit %s (line %u): %s", f->name, (unsigned)f->span.line,
             pat[f->pattern]);
  pkb_begin(b, "KOKKOS_FORCEINLINE_FUNCTION void operator()(const %s &", tag);
  put_index_params(c, f);
  if (f->acc && pkb_valloc(f)) {
    pkb_putf(b, ", %s &", pkb_valloc_type(c->m->arena, f));
    pkb_put_ident(b, f->acc->name);
  } else if (f->acc) {
    pkb_put(b, ", ");
    pkb_put_acc_type(b, f);
    pkb_put(b, " &");
    pkb_put_ident(b, f->acc->name);
  }
  if (f->pattern == PKI_PATTERN_SCAN) {
    pkb_put(b, ", const bool ");
    pkb_put_ident(b, f->final ? f->final->name : "final");
  }
  pkb_put(b, ") const {\n");
  b->indent++;
  for (int i = 0; i < f->nindex; i++)
    pkb_void_unread(c, f, f->index[i]);
  if (f->acc && !pkb_var_used(f, f->acc)) /* a body that never touches acc */
    pkb_void_unread(c, f, f->acc);
  if (f->final)
    pkb_void_unread(c, f, f->final);
  else if (f->pattern == PKI_PATTERN_SCAN)
    pkb_line(b, "(void)final;");
  pkb_emit_block(c, &f->body);
  b->indent--;
  pkb_line(b, "}");
  pkb_restore_line(c);
  c->fn = NULL;
}

static bool has_workunit(const pki_entity *e) {
  for (int i = 0; i < e->nfuncs; i++)
    if (e->funcs[i]->is_workunit || e->funcs[i]->is_main)
      return true;
  return false;
}

static void self_expr(pki_visitor *v, const pki_expr *e) {
  if (e->kind == PKI_E_VAR && e->var->kind == PKI_VAR_MEMBER)
    *(bool *)v->data = true;
}

static void self_stmt(pki_visitor *v, const pki_stmt *s) {
  if (s->kind == PKI_S_DISPATCH && s->closure && !s->closure->is_closure)
    *(bool *)v->data = true; /* a workunit of the workload runs on self */
}

/* Whether the code written for main body b surely names `self` (a member, or a
 * workunit dispatched on it); when not, main_function writes `(void)self;`. */
static bool names_self(const pki_block *b) {
  bool used = false;
  pki_visitor v = {.expr = self_expr, .stmt = self_stmt, .closures = true, .data = &used};
  pki_visit_block(&v, b);
  return used;
}

/* A workload's @pk.main: host code taking the functor by reference. */
static void main_function(pkb_ctx *c, const pki_func *f) {
  pkb_buf *b = c->b;
  c->fn = f;
  pkb_line(b, "// @pk.main %s.%s (line %u): host code, run by pk.execute", f->owner->name,
           f->name, (unsigned)f->span.line);
  pkb_line(b, "inline void %s(%s &self) {", pkb_main_name(c->m->arena, f),
           pkb_ident(c->m->arena, f->owner->name));
  b->indent++;
  if (!names_self(&f->body))
    pkb_line(b, "(void)self;");
  pkb_emit_block(c, &f->body);
  b->indent--;
  pkb_line(b, "}");
  pkb_restore_line(c);
  pkb_nl(b);
  c->fn = NULL;
}

/* ------------------------------------------------------------ classtypes */

static void classtype(pkb_ctx *c, const pki_entity *e, bool deferred) {
  pkb_buf *b = c->b;
  pkb_line(b, "// @pk.classtype %s (line %u)", e->name, (unsigned)e->span.line);
  pkb_line(b, "struct %s {", pkb_ident(c->m->arena, e->name));
  b->indent++;
  for (int i = 0; i < e->nmembers; i++) {
    pkb_begin(b, "%s", "");
    put_param(b, e->members[i]);
    pkb_put(b, ";\n");
  }
  pkb_nl(b);
  bool noarg_ctor = false; /* `def __init__(self)` is the default constructor itself */
  for (int i = 0; i < e->nfuncs; i++)
    noarg_ctor |= e->funcs[i]->is_ctor && e->funcs[i]->nparams == 0;
  if (!noarg_ctor)
    pkb_line(b, "KOKKOS_DEFAULTED_FUNCTION %s() = default;", pkb_ident(c->m->arena, e->name));
  for (int i = 0; i < e->nfuncs; i++)
    pkb_class_method(c, e, e->funcs[i], deferred ? PKB_DECL_ONLY : PKB_IN_CLASS);
  b->indent--;
  pkb_line(b, "};");
  pkb_nl(b);
}

static bool is_cls(pki_type t, const pki_entity *d) { return t.kind == PKI_CLASS && t.cls == d; }

typedef struct cls_q {
  const pki_entity *d;
  bool hit;
} cls_q;

static void cls_expr(pki_visitor *v, const pki_expr *e) {
  cls_q *q = v->data;
  if (is_cls(e->type, q->d))
    q->hit = true;
}

/* Whether an expression of b (nested blocks included) has classtype d. */
static bool block_uses(const pki_block *b, const pki_entity *d) {
  cls_q q = {.d = d};
  pki_visitor v = {.expr = cls_expr, .data = &q};
  pki_visit_block(&v, b);
  return q.hit;
}

static void dfunc_expr(pki_visitor *v, const pki_expr *e) {
  if (e->kind == PKI_E_CALL && e->func && e->func->owner &&
      e->func->owner->kind == PKI_ENT_FUNCTION)
    *(bool *)v->data = true;
}

/* Whether a method of classtype e calls a device function (@pk.function or an
 * undecorated helper): those methods are defined after the functions'
 * prototypes, which come after the classtypes (they may take them). */
static bool calls_device_function(const pki_entity *e) {
  bool hit = false;
  pki_visitor v = {.expr = dfunc_expr, .closures = true, .data = &hit};
  for (int i = 0; i < e->nfuncs && !hit; i++)
    pki_visit_block(&v, &e->funcs[i]->body);
  return hit;
}

/* Classtypes a classtype needs first (fields; methods' parameters, return
 * types, locals and expressions: the methods are defined inside the struct). */
static bool depends_on(const pki_entity *e, const pki_entity *d) {
  for (int i = 0; i < e->nmembers; i++)
    if (is_cls(e->members[i]->type, d))
      return true;
  for (int i = 0; i < e->nfuncs; i++) {
    const pki_func *f = e->funcs[i];
    if (is_cls(f->ret, d) || block_uses(&f->body, d))
      return true;
    for (int k = 0; k < f->nparams; k++)
      if (is_cls(f->params[k]->type, d))
        return true;
    for (int k = 0; k < f->nlocals; k++)
      if (is_cls(f->locals[k]->type, d))
        return true;
  }
  return false;
}

/* Appends e after the classtypes it depends on to order[] (seen[]: visited,
 * so each is listed once even in a cycle of method references). */
static void classtypes_in_order(pkb_ctx *c, const pki_entity *e, const pki_entity **seen,
                                int *nseen, const pki_entity **order, int *norder, int depth) {
  for (int i = 0; i < *nseen; i++)
    if (seen[i] == e)
      return;
  const pki_module *m = c->m;
  seen[(*nseen)++] = e;
  if (depth < 64)
    for (int i = 0; i < m->nentities; i++)
      if (m->entities[i] != e && m->entities[i]->kind == PKI_ENT_CLASSTYPE &&
          depends_on(e, m->entities[i]))
        classtypes_in_order(c, m->entities[i], seen, nseen, order, norder, depth + 1);
  order[(*norder)++] = e;
}

static void functor(pkb_ctx *c, const pki_entity *e) {
  pkb_buf *b = c->b;
  bool cls = pkb_is_class_entity(e);
  bool wl = e->kind == PKI_ENT_WORKLOAD;
  pkb_putf(b, "// %s %s (%s, line %u)\n",
           wl ? "@pk.workload" : cls ? "@pk.functor" : "@pk.workunit", e->name,
           wl ? "ClassStyWithMain" : cls ? "ClassSty" : "FunctionSty", (unsigned)e->span.line);
  pki_var *const *args = NULL;
  int n = cls ? (args = e->members, e->nmembers)
              : (e->nfuncs ? pkb_kernel_args(e->funcs[0], &args) : 0);
  for (int i = 0, k = 0; i < n; i++) /* Views of classtype values: one type per layout */
    if (pkb_class_view_default(args[i]))
      pkb_putf(b, "%s%s", k++ ? ", class " : "template <class ",
               pkb_class_view_tname(c->m->arena, args[i]));
  for (int i = 0; i < n; i++)
    if (pkb_class_view_default(args[i])) {
      pkb_put(b, ">  // each a C_aos<R> or C_soa<R>: one instantiation per layout\n");
      break;
    }
  pkb_line(b, "struct %s {", pkb_ident(c->m->arena, e->name));
  b->indent++;
  for (int i = 0; i < e->nfuncs; i++)
    if (e->funcs[i]->is_workunit)
      pkb_line(b, "struct %s {};", pkb_tag_name(c->m->arena, e->funcs[i]));
  pkb_fused_tags(c, e);
  if (n)
    pkb_nl(b);
  for (int i = 0; i < n; i++) {
    pkb_begin(b, "%s", "");
    if (pkb_class_view_default(args[i])) {
      pkb_putf(b, "%s ", pkb_class_view_tname(c->m->arena, args[i]));
      pkb_put_ident(b, args[i]->name);
    } else
      put_param(b, args[i]);
    pkb_put(b, ";\n");
  }
  pkb_fused_members(c, e);
  for (int i = 0; i < e->nfuncs; i++) {
    if (e->funcs[i]->is_workunit || e->funcs[i]->is_main)
      continue;
    pkb_nl(b);
    device_function(c, e->funcs[i], true);
  }
  for (int i = 0; i < e->nfuncs; i++) {
    if (!e->funcs[i]->is_workunit)
      continue;
    pkb_nl(b);
    workunit(c, e->funcs[i]);
  }
  pkb_fused_operators(c, e);
  b->indent--;
  pkb_line(b, "};");
  pkb_nl(b);
}

/* The classtypes in dependence order; methods that need a classtype defined
 * later, or a device function, are left out of their class (late[]: the
 * classtypes, *nlate of them, whose methods pkb_class_method must define
 * after the device functions' prototypes). */
static void gen_classtypes(pkb_ctx *c, const pki_entity ***late, int *nlate) {
  const pki_module *m = c->m;
  int n = 0;
  *nlate = 0;
  for (int i = 0; i < m->nentities; i++)
    n += m->entities[i]->kind == PKI_ENT_CLASSTYPE;
  if (!n)
    return;
  const pki_entity **seen = pki_alloc(m->arena, sizeof *seen * (size_t)n * 2);
  const pki_entity **order = seen + n;
  bool *deferred = pki_alloc(m->arena, sizeof *deferred * (size_t)n);
  int nseen = 0, norder = 0;
  for (int i = 0; i < m->nentities; i++)
    if (m->entities[i]->kind == PKI_ENT_CLASSTYPE)
      classtypes_in_order(c, m->entities[i], seen, &nseen, order, &norder, 0);
  bool any = false; /* methods using a classtype defined later: defined after all */
  bool *calls = pki_alloc(m->arena, sizeof *calls * (size_t)n);
  for (int i = 0; i < norder; i++) {
    deferred[i] = false;
    for (int k = i + 1; k < norder; k++)
      deferred[i] = deferred[i] || depends_on(order[i], order[k]);
    calls[i] = calls_device_function(order[i]);
    deferred[i] = deferred[i] || calls[i];
    any = any || deferred[i];
  }
  for (int i = 0; any && i < norder; i++)
    pkb_line(c->b, "struct %s;", pkb_ident(m->arena, order[i]->name));
  if (any)
    pkb_nl(c->b);
  for (int i = 0; i < norder; i++)
    classtype(c, order[i], deferred[i]);
  bool now = false;
  for (int i = 0; i < norder; i++)
    for (int k = 0; deferred[i] && !calls[i] && k < order[i]->nfuncs; k++, now = true)
      pkb_class_method(c, order[i], order[i]->funcs[k], PKB_OUT_OF_CLASS);
  if (now)
    pkb_nl(c->b);
  pkb_class_view_types(c);
  *late = pki_alloc(m->arena, sizeof **late * (size_t)n);
  for (int i = 0; i < norder; i++)
    if (calls[i])
      (*late)[(*nlate)++] = order[i];
}

/* Device functions and functors, inside the namespace. */
static void gen_functors(pkb_ctx *c) {
  const pki_module *m = c->m;
  int nfn = 0, nlate;
  const pki_entity **late;
  gen_classtypes(c, &late, &nlate);
  for (int i = 0; i < m->nentities; i++)
    if (m->entities[i]->kind == PKI_ENT_FUNCTION && m->entities[i]->nfuncs) {
      if (!nfn++)
        pkb_line(c->b, "// Device functions: prototypes, then definitions.");
      device_signature(c, m->entities[i]->funcs[0], false);
      pkb_put(c->b, ";\n");
    }
  if (nfn && !nlate) /* (an out-of-class method starts with a blank line) */
    pkb_nl(c->b);
  for (int i = 0; i < nlate; i++) /* classtype methods that call device functions */
    for (int k = 0; k < late[i]->nfuncs; k++)
      pkb_class_method(c, late[i], late[i]->funcs[k], PKB_OUT_OF_CLASS);
  if (nlate)
    pkb_nl(c->b);
  for (int i = 0; i < m->nentities; i++)
    if (m->entities[i]->kind == PKI_ENT_FUNCTION && m->entities[i]->nfuncs) {
      device_function(c, m->entities[i]->funcs[0], false);
      pkb_nl(c->b);
    }
  for (int i = 0; i < m->nentities; i++) {
    const pki_entity *e = m->entities[i];
    if (e->kind != PKI_ENT_FUNCTION && e->kind != PKI_ENT_CLASSTYPE && has_workunit(e))
      functor(c, e);
    for (int k = 0; k < e->nfuncs; k++)
      if (e->kind == PKI_ENT_WORKLOAD && e->funcs[k]->is_main)
        main_function(c, e->funcs[k]);
  }
}

int pkb_module_kernels(const pki_module *m) {
  int nk = 0; /* as the descriptor counts them (emit_abi.c, FOR_EACH_KERNEL) */
  for (int i = 0; i < m->nentities; i++)
    for (int k = 0; k < m->entities[i]->nfuncs; k++)
      nk += m->entities[i]->kind != PKI_ENT_FUNCTION && pkb_is_kernel(m->entities[i]->funcs[k]);
  return nk;
}

/* Whether text holds only blanks. */
static bool blank(const char *text) {
  return !text || !text[strspn(text, " \t\n")];
}

bool pkb_gen_cpp(const pki_module *m, const pkb_options *o, pkb_buf *b) {
  pkb_buf ns; /* the module's namespace: functors, device functions, constants */
  pkb_buf_init(&ns);
  pkb_ctx c = {.m = m, .o = o, .b = &ns,
               .names_iterate = strstr(m->source, "Iterate") || strstr(m->source, "iterate")};
  pkb_module_constants(&c);
  c.in_ns = true;
  gen_functors(&c);
  pkb_host_fused_functors(&c);
  c.in_ns = false;
  c.b = b;
  bool bare = !pkb_module_kernels(m) && !(m->fusion && m->fusion->host.n) && blank(ns.data);
  pkb_putf(b, "// Generated by pkc %s from %s -- do not edit.\n", o->pkc_version,
           pkb_comment_text(m->arena, m->abspath));
  if (o->error_model_numpy) /* integer // and % by zero give 0, raise nothing */
    pkb_put(b, "#define PKC_ERROR_MODEL_NUMPY 1\n");
  if (bare) /* only the descriptor: the module functions are glue */
    pkb_put(b, "// No kernels of its own (each workunit is built as a run-time specialization):\n"
               "// the descriptor needs the module functions only, declared in pkc_glue.hpp.\n"
               "#include \"pkc_glue.hpp\"\n\n");
  else
    pkb_put(b, "#include \"pkc_kokkos.hpp\"\n\n");
  pkb_put(b, "#if defined(__has_include)\n#if __has_include(\"pkc_cache_key.h\")\n"
             "#include \"pkc_cache_key.h\"  // written by pkc build into build-<backend>/\n"
             "#endif\n#endif\n#ifndef PKC_CACHE_KEY\n#define PKC_CACHE_KEY \"\"\n#endif\n\n");
  pkb_putf(b, "namespace pkc_%s {\n\n", m->name);
  pkb_put(b, ns.data ? ns.data : "");
  pkb_buf_free(&ns);
  pkb_putf(b, "}  // namespace pkc_%s\n\n", m->name);
  pkb_gen_wrappers(&c);
  pkb_host_fused_wrappers(&c);
  pkb_gen_descriptor(&c);
  pkb_host_fusion_table(&c);
  pkb_footprint_table(&c);
  return bare;
}
