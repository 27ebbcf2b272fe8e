/*
 * emit_abi.c - the plain C side of a module: one extern "C" wrapper per
 * workunit (binds DLTensor / pkc_value arguments, launches the pattern),
 * the pkc_module_v1 descriptor table, and the <name>.h C header.
 */
#include <stdio.h>
#include <string.h>

#include "access.h"
#include "pkb_priv.h"

static const char *entity_label(pki_arena *a, const pki_func *f) {
  if (pkb_is_class_entity(f->owner))
    return pki_sprintf(a, "%s.%s", f->owner->name, f->name);
  return f->name;
}

static const char *functor_type(pki_arena *a, const pki_module *m, const pki_func *f) {
  return pki_sprintf(a, "pkc_%s::%s", m->name, pkb_ident(a, f->owner ? f->owner->name : f->name));
}

/* "pkc::bind_view(f.x, args[3], kernel, "x", err, errlen)" (a View of
 * classtype values: the module's bind_class_view, found by its argument) */
static void put_bind_call(pkb_buf *b, const pki_var *v, int slot) {
  pkb_putf(b, "%s(f.", pki_is_class_view(v->type) ? "bind_class_view"
                       : v->type.kind == PKI_VIEW ? "pkc::bind_view"
                       : v->type.kind == PKI_POOL ? "pkc::bind_pool"
                                                  : "pkc::bind_scalar");
  pkb_put_ident(b, v->name);
  pkb_putf(b, ", args[%d], kernel, ", slot);
  pkb_put_cstr(b, v->name);
  pkb_put(b, ", err, errlen)");
}

/* ---- the members a kernel uses (a workload's or class functor's kernels
 * bind only those): its body, its closures, the methods it calls and, for
 * @pk.main, the workunits it dispatches */

typedef struct used_q {
  pki_var *const *members;
  int n;
  bool *used;
  pki_vec seen; /* functions walked */
  pki_arena *a;
} used_q;

static void used_func(pki_visitor *v, const pki_func *f);

static void used_expr(pki_visitor *v, const pki_expr *e) {
  used_q *q = v->data;
  if (e->kind == PKI_E_VAR && e->var && e->var->kind == PKI_VAR_MEMBER)
    for (int i = 0; i < q->n; i++)
      q->used[i] = q->used[i] || q->members[i] == e->var;
  if (e->kind == PKI_E_CALL && e->func)
    used_func(v, e->func);
}

static void used_stmt(pki_visitor *v, const pki_stmt *s) {
  if (s->kind == PKI_S_DISPATCH && s->closure)
    used_func(v, s->closure);
}

static void used_func(pki_visitor *v, const pki_func *f) {
  used_q *q = v->data;
  for (int i = 0; i < q->seen.n; i++)
    if (q->seen.items[i] == f)
      return;
  pki_vec_push(q->a, &q->seen, (void *)f);
  pki_visit_func(v, f);
}

/* used[i]: kernel f reads or writes member i of its entity. */
static void members_used(pki_arena *a, const pki_func *f, pki_var *const *members, int n,
                         bool *used) {
  used_q q = {.members = members, .n = n, .used = used, .a = a};
  pki_visitor v = {.expr = used_expr, .stmt = used_stmt, .data = &q};
  used_func(&v, f);
}

/* A workload or class functor with several kernels: one bind_<entity>
 * function the wrappers share, each passing the members it uses as the bits
 * of a uint64_t (more than 64 members: each wrapper binds its own). */
static bool shares_binder(const pki_func *f) {
  if (!pkb_is_class_entity(f->owner) || f->owner->nmembers > 64)
    return false;
  int kernels = 0;
  for (int i = 0; i < f->owner->nfuncs; i++)
    kernels += f->owner->funcs[i] && pkb_is_kernel(f->owner->funcs[i]);
  return kernels > 1;
}

static const char *binder_name(pki_arena *a, const pki_entity *e) {
  return pki_sprintf(a, "bind_%s", pkb_ident(a, e->name));
}

/* bool bind_<E>(E &f, args, used, ...): binds member k (argument slot k)
 * where bit k of used is set, one line per member. */
static void binder(pkb_ctx *c, const pki_entity *e) {
  pkb_buf *b = c->b;
  pki_arena *a = c->m->arena;
  pkb_line(b, "// Binds the members of %s whose bit is set in `used` (bit k: the member",
           pkb_comment_text(a, e->name));
  pkb_line(b, "// in slot k of args, pkc_abi.h order) for the C entry points below.");
  pkb_line(b, "static bool %s(pkc_%s::%s &f, void *const *args, uint64_t used,",
           binder_name(a, e), c->m->name, pkb_ident(a, e->name));
  pkb_line(b, "    const char *kernel, char *err, size_t errlen) {");
  b->indent++;
  pkb_line(b, "if (used && !args)");
  pkb_line(b, "  return !pkc::fail(err, errlen, kernel, \"missing arguments (args is NULL)\");");
  for (int i = 0; i < e->nmembers; i++) {
    pkb_begin(b, "if ((used >> %d & 1) && !", i);
    put_bind_call(b, e->members[i], i);
    pkb_put(b, ") return false;\n");
  }
  pkb_line(b, "return true;");
  b->indent--;
  pkb_line(b, "}");
  pkb_nl(b);
}

/* "// binds a, b, c" over the call of the shared binder (wrapped). */
static void used_comment(pkb_buf *b, pki_arena *a, pki_var *const *args, int n,
                         const bool *used) {
  pkb_begin(b, "// binds");
  for (int i = 0, k = 0; i < n; i++) {
    if (!used[i])
      continue;
    if (k && pkb_line_past(b, 80)) {
      pkb_put(b, ",\n");
      pkb_begin(b, "//");
    } else if (k)
      pkb_put(b, ",");
    pkb_putf(b, " %s", pkb_comment_text(a, args[i]->name));
    k++;
  }
  pkb_put(b, "\n");
}

static void bind_args(pkb_ctx *c, const pki_func *f, bool args_checked) {
  pkb_buf *b = c->b;
  pki_var *const *args;
  int n = pkb_kernel_args(f, &args);
  if (shares_binder(f)) {
    bool *used = pki_alloc(c->m->arena, sizeof(bool) * (size_t)(n ? n : 1));
    members_used(c->m->arena, f, args, n, used);
    unsigned long long mask = 0;
    for (int i = 0; i < n; i++)
      mask |= (unsigned long long)used[i] << i;
    if (mask)
      used_comment(b, c->m->arena, args, n, used);
    pkb_line(b, "if (!%s(f, args, 0x%llx%s, kernel, err, errlen))",
             binder_name(c->m->arena, f->owner), mask, mask >> 32 ? "ull" : "u");
    pkb_line(b, "  return 1;");
    return;
  }
  if (n && !args_checked)
    pkb_line(b, "if (!args) return pkc::fail(err, errlen, kernel, \"missing arguments (args is NULL)\");");
  for (int i = 0; i < n; i++) {
    pkb_begin(b, "if (!");
    put_bind_call(b, args[i], i);
    pkb_put(b, ") return 1;\n");
  }
}

/* @pk.main: bind the members, run the host code, copy written scalars back. */
static void launch_main(pkb_ctx *c, const pki_func *f) {
  pkb_buf *b = c->b;
  pkb_line(b, "%s(f);", pkb_main_name(c->m->arena, f));
  pkb_abi_kernel_errors(c, f);
  pki_var *const *args;
  int n = pkb_kernel_args(f, &args);
  for (int i = 0; i < n; i++) {
    const pki_var *v = args[i];
    if (v->type.kind == PKI_VIEW || v->type.kind == PKI_POOL || !(v->access & PKI_ACCESS_WRITE))
      continue;
    pkb_begin(b, "pkc::store_result(static_cast<pkc_value *>(args[%d]), f.", i);
    pkb_put_ident(b, v->name);
    pkb_put(b, ");\n");
  }
}

typedef struct prints_q {
  bool hit;
  int depth;
} prints_q;

static void prints_stmt(pki_visitor *v, const pki_stmt *s) {
  ((prints_q *)v->data)->hit |= s->kind == PKI_S_PRINTF;
}

static void prints_expr(pki_visitor *v, const pki_expr *e) {
  prints_q *q = v->data;
  if (q->hit || e->kind != PKI_E_CALL || !e->func || q->depth > 16)
    return;
  q->depth++; /* a device function it calls (recursion is an error) */
  pki_visit_func(v, e->func);
  q->depth--;
}

/* Whether f, its closures, the workunits it dispatches or the functions they
 * call print (pk.printf). */
static bool prints(const pki_func *f) {
  prints_q q = {0};
  pki_visitor v = {.stmt = prints_stmt, .expr = prints_expr, .closures = true, .data = &q};
  pki_visit_func(&v, f);
  return q.hit;
}

static void wrapper(pkb_ctx *c, const pki_func *f) {
  pkb_buf *b = c->b;
  pki_arena *a = c->m->arena;
  pki_var *const *args;
  int n = pkb_kernel_args(f, &args);
  bool unsupported = !f->is_main && f->policy == PKI_POLICY_MDRANGE &&
                     f->pattern == PKI_PATTERN_SCAN;
  const char *fty = functor_type(a, c->m, f);
  pkb_line(b, "extern \"C\" PKC_EXPORT int %s(void *const *%s, const pkc_policy *%s,",
           pkb_wrapper_name(a, c->m, f), n && !unsupported ? "args" : " /*args*/",
           unsupported || f->is_main ? " /*policy*/" : "policy");
  pkb_line(b, "    pkc_value *%s, char *err, size_t errlen) {",
           f->pattern == PKI_PATTERN_FOR || unsupported || f->is_main ? " /*result*/" : "result");
  b->indent++;
  pkb_begin(b, "static const char kernel[] = ");
  pkb_put_cstr(b, entity_label(a, f));
  pkb_put(b, ";\n");
  if (unsupported) {
    pkb_line(b, "return pkc::fail(err, errlen, kernel, \"MDRange scans are not supported by "
                "Kokkos\");");
    b->indent--;
    pkb_line(b, "}");
    pkb_nl(b);
    return;
  }
  pkb_line(b, "return pkc::launch(kernel, err, errlen, [&]() -> int {");
  b->indent++;
  if (!f->is_main)
    pkb_abi_check_policy(c, f);
  int slots[PKB_MAX_CLASS_VIEWS], ns = 0;
  for (int i = 0; i < n && ns < PKB_MAX_CLASS_VIEWS; i++)
    if (pkb_class_view_default(args[i]))
      slots[ns++] = i;
  if (ns)
    pkb_line(b, "if (!args) return pkc::fail(err, errlen, kernel, \"missing arguments (args is "
                "NULL)\");");
  /* Views of classtype values: one instantiation per combination of their
   * layouts (bit k of mask: SoA for slots[k]), chosen here, never in the kernel */
  for (int mask = (1 << ns) - 1; mask >= 0; mask--) {
    const char *ty = fty;
    if (ns) {
      const char *targs = "";
      for (int k = 0; k < ns; k++)
        targs = pki_sprintf(a, "%s%spkc_%s::%s_%s<%d>", targs, k ? ", " : "", c->m->name,
                            pkb_ident(a, args[slots[k]]->type.cls->name),
                            mask >> k & 1 ? "soa" : "aos", args[slots[k]]->type.rank);
      ty = pki_sprintf(a, "%s<%s>", fty, targs);
      if (mask) {
        pkb_begin(b, "if (");
        for (int k = 0; k < ns; k++)
          pkb_putf(b, "%spkc::class_layout(args[%d]) == PKC_LAYOUT_%s", k ? " && " : "",
                   slots[k], mask >> k & 1 ? "SOA" : "AOS");
        pkb_put(b, ") {\n");
      } else
        pkb_line(b, "{");
      b->indent++;
    }
    pkb_line(b, "%s f{};", ty);
    bind_args(c, f, ns > 0);
    if (!f->is_main)
      pkb_abi_check_extents(c, f, "f");
    if (f->is_main)
      launch_main(c, f);
    else
      pkb_abi_launch(c, f, ty, NULL);
    if (prints(f)) /* its lines before Python's next print, through a pipe too */
      pkb_line(b, "pkc::flush_printf();");
    pkb_line(b, "return 0;");
    if (ns) {
      b->indent--;
      pkb_line(b, "}");
    }
  }
  b->indent--;
  pkb_line(b, "});");
  b->indent--;
  pkb_line(b, "}");
  pkb_nl(b);
}

static void pool_var(pki_visitor *v, const pki_var *var) {
  if (var->type.kind == PKI_POOL || var->type.kind == PKI_RAND_STATE)
    *(bool *)v->data = true;
}

static void pool_expr(pki_visitor *v, const pki_expr *e) {
  if (e->type.kind == PKI_POOL || e->type.kind == PKI_RAND_STATE)
    *(bool *)v->data = true;
}

/* Does some entity of m take, make or use a random pool? */
static bool uses_pools(const pki_module *m) {
  bool found = false;
  pki_visitor v = {.expr = pool_expr, .var = pool_var, .data = &found};
  for (int i = 0; i < m->nentities && !found; i++)
    if (m->entities[i])
      pki_visit_entity(&v, m->entities[i]);
  return found;
}

/* Calls fn for every workunit of the module, in source order. */
#define FOR_EACH_KERNEL(m, f, body)                                           \
  for (int ei_ = 0; ei_ < (m)->nentities; ei_++)                              \
    for (int fi_ = 0; fi_ < (m)->entities[ei_]->nfuncs; fi_++) {             \
      const pki_func *f = (m)->entities[ei_]->funcs[fi_];                     \
      if (!pkb_is_kernel(f) || (m)->entities[ei_]->kind == PKI_ENT_FUNCTION)  \
        continue;                                                             \
      body                                                                    \
    }

void pkb_gen_wrappers(pkb_ctx *c) {
  pkb_line(c->b, "// ---- C entry points (pkc_abi.h: pkc_kernel_fn) ----");
  pkb_nl(c->b);
  const pki_entity *bound = NULL;
  FOR_EACH_KERNEL(c->m, f, {
    if (shares_binder(f) && f->owner != bound)
      binder(c, bound = f->owner);
    wrapper(c, f);
  })
}

/* ------------------------------------------------------------ descriptor */

/* The rows of f's parameter table (pkb_abi_param_desc lines), in rows. */
static void table_rows(pkb_ctx *c, const pki_func *f, pkb_buf *rows) {
  pki_var *const *args;
  int n = pkb_kernel_args(f, &args);
  pkb_buf *keep = c->b;
  pkb_buf_init(rows);
  c->b = rows;
  for (int i = 0; i < n; i++)
    pkb_abi_param_desc(c, args[i], args[i]->name, args[i]->access, args[i]->from_global);
  c->b = keep;
}

/* One parameter table per distinct parameter list (the kernels of a workload
 * all take its members: one table for them), params_<k> after the first kernel
 * k that has it; table[k]: the table kernel k uses (-1: no parameters). */
static void param_tables(pkb_ctx *c, int *table, int nk) {
  pkb_buf *b = c->b;
  pkb_buf *rows = pki_alloc(c->m->arena, (size_t)(nk ? nk : 1) * sizeof *rows);
  const pki_func **fs = pki_alloc(c->m->arena, (size_t)(nk ? nk : 1) * sizeof *fs);
  int k = 0;
  FOR_EACH_KERNEL(c->m, f, {
    fs[k] = f;
    table_rows(c, f, &rows[k]);
    table[k] = rows[k].len ? k : -1;
    for (int j = 0; j < k && table[k] == k; j++)
      if (table[j] == j && rows[j].len == rows[k].len &&
          !memcmp(rows[j].data, rows[k].data, rows[k].len))
        table[k] = j;
    k++;
  })
  for (k = 0; k < nk; k++) {
    if (table[k] != k)
      continue;
    int users = 0;
    for (int j = k; j < nk; j++)
      users += table[j] == k;
    pkb_begin(b, "const pkc_param_desc params_%d[] = {  // %s", k,
              entity_label(c->m->arena, fs[k]));
    if (users > 1)
      pkb_putf(b, " and %d more kernel%s", users - 1, users > 2 ? "s" : "");
    pkb_put(b, "\n");
    pkb_put(b, rows[k].data);
    pkb_line(b, "};");
  }
  for (k = 0; k < nk; k++)
    pkb_buf_free(&rows[k]);
}

static void kernel_entry(pkb_ctx *c, const pki_func *f, int table) {
  pki_var *const *args;
  int n = pkb_kernel_args(f, &args);
  pkb_abi_kernel_desc(c, f->name, f->owner ? f->owner->name : f->name,
                      f->is_main ? 3 : (int)f->pattern, f->is_main ? 0 : (int)f->policy,
                      (int)f->reducer, n,
                      n ? pki_sprintf(c->m->arena, "params_%d", table) : NULL,
                      f->acc, f->span.line, pkb_wrapper_name(c->m->arena, c->m, f),
                      f->inferred);
}

/* The descriptor's omitted list (pkc_abi.h): one line per entity left out. */
static void omitted_list(pkb_ctx *c) {
  pkb_buf *b = c->b;
  const pki_module *m = c->m;
  if (!m->nomitted) {
    pkb_line(b, "      \"\"};  // omitted: none");
    return;
  }
  for (int i = 0; i < m->nomitted; i++) {
    const pki_omitted *o = &m->omitted[i];
    pkb_begin(b, "      ");
    pkb_put_cstr(b, pki_sprintf(c->m->arena, "%s\t%s\t%s:%u:%u: %s\n", o->entity,
                                o->kind == PKI_OMIT_REJECTED ? "rejected" : "runtime-typed",
                                m->abspath, (unsigned)o->at.line, (unsigned)o->at.col,
                                o->message));
    pkb_put(b, i + 1 == m->nomitted ? "};  // omitted\n" : "\n");
  }
}

void pkb_gen_descriptor(pkb_ctx *c) {
  pkb_buf *b = c->b;
  const pki_module *m = c->m;
  char sha[65] = "";
  pkb_sha256_hex(m->source, m->source_len, sha);
  pkb_line(b, "// ---- module descriptor (pkc_abi.h) ----");
  pkb_line(b, "namespace {");
  pkb_nl(b);
  int k = 0, nk = 0, nfused = m->fusion ? m->fusion->host.n : 0;
  FOR_EACH_KERNEL(m, f, { nk++; (void)f; })
  int *table = pki_alloc(c->m->arena, (size_t)(nk ? nk : 1) * sizeof *table);
  param_tables(c, table, nk);
  pkb_host_fused_param_tables(c);
  pkb_nl(b);
  if (nk + nfused) {
    pkb_line(b, "const pkc_kernel_desc kernels[] = {");
    FOR_EACH_KERNEL(m, f, { kernel_entry(c, f, table[k]); k++; })
    pkb_host_fused_kernels(c);
    pkb_line(b, "};");
  }
  pkb_nl(b);
  pkb_line(b, "}  // namespace");
  pkb_nl(b);
  pkb_line(b, "extern \"C\" PKC_EXPORT const pkc_module_desc *pkc_module_v2(void) {");
  pkb_line(b, "  static const pkc_module_desc desc = {");
  pkb_line(b, "      PKC_ABI_VERSION,");
  pkb_begin(b, "      ");
  pkb_put_cstr(b, c->o->pkc_version ? c->o->pkc_version : "0");
  pkb_put(b, ",  // pkc_version\n");
  pkb_begin(b, "      ");
  pkb_put_cstr(b, m->abspath);
  pkb_put(b, ",\n");
  pkb_line(b, "      \"%s\",  // source_sha256", sha);
  pkb_line(b, "      PKC_CACHE_KEY,");
  pkb_line(b, "      PKC_BACKEND_NAME,");
  pkb_line(b, "      pkc::kokkos_version(),");
  pkb_line(b, "      pkc::device_type,");
  pkb_line(b, "      %d,", nk + nfused);
  pkb_line(b, "      %s,", nk + nfused ? "kernels" : "nullptr");
  pkb_line(b, "      pkc::initialize,");
  pkb_line(b, "      pkc::finalize,");
  pkb_line(b, "      pkc::fence,");
  pkb_line(b, "      pkc::on_device ? pkc::allocate : nullptr,");
  pkb_line(b, "      pkc::on_device ? pkc::deallocate : nullptr,");
  pkb_line(b, "      pkc::copy,");
  /* only a module that takes or makes random pools instantiates them */
  bool pools = uses_pools(m);
  pkb_line(b, "      %s", pools ? "pkc::pool_create," : "nullptr,  // pool_create: no random pools");
  pkb_line(b, "      %s", pools ? "pkc::pool_destroy," : "nullptr,  // pool_destroy");
  omitted_list(c);
  pkb_line(b, "  return &desc;");
  pkb_line(b, "}");
}

/* ------------------------------------------------------------ <name>.h */

static const char *access_text(unsigned acc) {
  static const char *const t[] = {"unused", "read", "write", "read-write"};
  return t[acc & 3];
}

/* The header comment's lines for f's arguments (" *   args[i] name: type,
 * access", newline-separated, no final newline) in out. */
static void header_args(pki_arena *a, const pki_func *f, pkb_buf *out) {
  pki_var *const *args;
  int n = pkb_kernel_args(f, &args);
  pkb_buf_init(out);
  for (int i = 0; i < n; i++) {
    const pki_var *v = args[i];
    pkb_putf(out, "%s *   args[%d] %s: %s", i ? "\n" : "", i, v->name, pki_type_str(a, v->type));
    if (v->type.kind == PKI_VIEW && v->type.layout == PKI_LAYOUT_DEFAULT)
      pkb_put(out, " (default layout of the backend)");
    pkb_putf(out, ", %s", access_text(v->access ? v->access : PKI_ACCESS_READ));
  }
}

void pkb_gen_header(const pki_module *m, const pkb_options *o, pkb_buf *b) {
  pki_arena *a = m->arena;
  pkb_putf(b, "/* Generated by pkc %s from %s -- do not edit.\n", o->pkc_version,
           pkb_comment_text(a, m->abspath));
  pkb_putf(b, " * C entry points of %s.<backend>.so; each is a pkc_kernel_fn (pkc_abi.h):\n"
              " * args[i] points at a DLTensor (Views) or a pkc_value (scalars). */\n",
           m->name);
  pkb_putf(b, "#ifndef PKC_%s_H\n#define PKC_%s_H\n\n#include \"pkc_abi.h\"\n\n", m->name,
           m->name);
  pkb_put(b, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  static const char *const pat[] = {"parallel_for", "parallel_reduce", "parallel_scan"};
  static const char *const pol[] = {"RangePolicy", "MDRangePolicy", "TeamPolicy"};
  int nk = 0, k = 0;
  FOR_EACH_KERNEL(m, f, { nk++; (void)f; })
  pkb_buf *lists = pki_alloc(a, (size_t)(nk ? nk : 1) * sizeof *lists); /* args lines */
  const pki_func **fs = pki_alloc(a, (size_t)(nk ? nk : 1) * sizeof *fs);
  FOR_EACH_KERNEL(m, f, {
    fs[k] = f;
    if (f->is_main)
      pkb_putf(b, "/* %s (line %u): @pk.main (policy NULL; written scalars copied back)",
               entity_label(a, f), (unsigned)f->span.line);
    else
      pkb_putf(b, "/* %s (line %u): %s over a %s", entity_label(a, f), (unsigned)f->span.line,
               pat[f->pattern], pol[f->policy]);
    if (f->acc)
      pkb_putf(b, "; result %s", pki_kind_name(f->acc->type.kind));
    header_args(a, f, &lists[k]);
    int same = -1; /* an earlier kernel with these arguments: named, not repeated */
    for (int j = 0; j < k && same < 0 && lists[k].len; j++)
      if (lists[j].len == lists[k].len && !memcmp(lists[j].data, lists[k].data, lists[k].len))
        same = j;
    if (same >= 0)
      pkb_putf(b, ";\n *   args as for %s */\n", entity_label(a, fs[same]));
    else if (lists[k].len)
      pkb_putf(b, "\n%s */\n", lists[k].data);
    else
      pkb_put(b, " */\n");
    pkb_putf(b, "int %s(void *const *args, const pkc_policy *policy, pkc_value *result,\n"
                "    char *err, size_t errlen);\n\n",
             pkb_wrapper_name(a, m, f));
    k++;
  })
  for (k = 0; k < nk; k++)
    pkb_buf_free(&lists[k]);
  for (int i = 0; m->fusion && i < m->fusion->host.n; i++) {
    const pki_host_fused *g = PKI_AT(m->fusion->host, i, pki_host_fused);
    pkb_putf(b, "/* pkc_fused%d: %s\n *   args: the parameters of its kernel entry in the descriptor "
                "(pkc_fusion_v1() maps the calls' arguments to them) */\n", g->id,
             pkb_comment_text(a, g->why));
    pkb_putf(b, "int pkc_%s__pkc_fused%d(void *const *args, const pkc_policy *policy, "
                "pkc_value *result,\n    char *err, size_t errlen);\n\n", m->name, g->id);
  }
  if (m->fusion && m->fusion->host.n)
    pkb_put(b, "/* The fused variants of host-code launches, one JSON object per line. */\n"
               "const char *pkc_fusion_v1(void);\n\n");
  if (pkb_footprint_count(m))
    pkb_put(b, "/* The View elements a work item of each kernel touches, one JSON object per\n"
               " * line (for pk.Graph's edges). */\nconst char *pkc_footprint_v1(void);\n\n");
  pkb_put(b, "/* The module's descriptor table. */\nconst pkc_module_desc *pkc_module_v2(void);\n\n");
  pkb_putf(b, "#ifdef __cplusplus\n}\n#endif\n\n#endif /* PKC_%s_H */\n", m->name);
}
