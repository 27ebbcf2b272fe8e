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

/* "Kokkos::RangePolicy<...>(b, e)" or the MDRangePolicy equivalent, with
 * tag (f's own when NULL); c->policy_text, when set, as written. */
static void put_policy(pkb_ctx *c, const pki_func *f, const char *fty, const char *tag,
                       const char *iter) {
  pkb_buf *b = c->b;
  if (!tag)
    tag = pkb_tag_name(c->m->arena, f);
  if (c->policy_text) {
    pkb_put(b, c->policy_text);
    return;
  }
  if (f->policy == PKI_POLICY_RANGE) {
    pkb_putf(b, "pkc::RangePolicy<%s::%s>(begin, end)", fty, tag);
    return;
  }
  if (f->policy == PKI_POLICY_TEAM && pki_has_team_scan(f)) {
    pkb_putf(b, "pkc::scan_team_policy<%s::%s>(*policy, f, Kokkos::%s())", fty, tag,
             f->pattern == PKI_PATTERN_FOR ? "ParallelForTag" : "ParallelReduceTag");
    return;
  }
  if (f->policy == PKI_POLICY_TEAM) {
    pkb_putf(b, "pkc::team_policy<%s::%s>(*policy)", fty, tag);
    return;
  }
  int r = f->nindex;
  if (iter)
    pkb_putf(b, "pkc::MDRangePolicyIter<%d, %s::%s, Kokkos::Iterate::%s>(", r, fty, tag, iter);
  else
    pkb_putf(b, "pkc::MDRangePolicy<%d, %s::%s>(", r, fty, tag);
  static const char *const parts[] = {"begin", "end", "tile"};
  for (int p = 0; p < 3; p++) {
    pkb_put(b, p ? ", {" : "{");
    for (int k = 0; k < r; k++)
      pkb_putf(b, "%spolicy->%s[%d]", k ? ", " : "", parts[p], k);
    pkb_put(b, "}");
  }
  pkb_put(b, ")");
}

void pkb_abi_check_policy(pkb_ctx *c, const pki_func *f) {
  pkb_buf *b = c->b;
  if (f->policy == PKI_POLICY_RANGE) {
    pkb_line(b, "if (!policy || policy->kind != PKC_POLICY_RANGE)");
    pkb_line(b, "  return pkc::fail(err, errlen, kernel, \"expected a RangePolicy (or an int N)\");");
    pkb_line(b, "const int64_t begin = policy->begin[0];");
    pkb_line(b, "const int64_t end = policy->end[0] < begin ? begin : policy->end[0];");
  } else if (f->policy == PKI_POLICY_TEAM) {
    pkb_line(b, "if (!policy || policy->kind != PKC_POLICY_TEAM)");
    pkb_line(b, "  return pkc::fail(err, errlen, kernel, \"expected a TeamPolicy\");");
    for (int level = 0; level < 2; level++)
      for (int th = 0; th < 2; th++)
        if (pki_uses_scratch(&f->body, level, th)) { /* PerThread sizes count for the team */
          if (th)
            pkb_line(b, "if (policy->scratch_thread[%d] <= 0)", level);
          else
            pkb_line(b, "if (policy->scratch_team[%d] <= 0 && policy->scratch_thread[%d] <= 0)",
                     level, level);
          pkb_line(b, "  return pkc::fail(err, errlen, kernel, \"uses %s scratch level %d but the "
                      "policy sets no scratch size; call set_scratch_size\");",
                   th ? "thread" : "team", level);
        }
  } else {
    pkb_line(b, "if (!policy || policy->kind != PKC_POLICY_MDRANGE || policy->rank != %d)",
             f->nindex);
    pkb_line(b, "  return pkc::fail(err, errlen, kernel, \"expected an MDRangePolicy of rank %d\");",
             f->nindex);
  }
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
 * function the wrappers share, each passing the members it uses. */
static bool shares_binder(const pki_func *f) {
  if (!pkb_is_class_entity(f->owner))
    return false;
  int kernels = 0;
  for (int i = 0; i < f->owner->nfuncs; i++)
    kernels += f->owner->funcs[i] && pkb_is_kernel(f->owner->funcs[i]);
  return kernels > 1;
}

static const char *binder_name(pki_arena *a, const pki_entity *e) {
  return pki_sprintf(a, "bind_%s", pkb_ident(a, e->name));
}

/* bool bind_<E>(E &f, args, {k...}, ...): binds the members numbered k (their
 * argument slots) from args. */
static void binder(pkb_ctx *c, const pki_entity *e) {
  pkb_buf *b = c->b;
  pki_arena *a = c->m->arena;
  pkb_line(b, "// Binds the members of %s numbered in `used` (their slots in args,",
           pkb_comment_text(a, e->name));
  pkb_line(b, "// pkc_abi.h order) for the C entry points below.");
  pkb_line(b, "static bool %s(pkc_%s::%s &f, void *const *args, std::initializer_list<int> used,",
           binder_name(a, e), c->m->name, pkb_ident(a, e->name));
  pkb_line(b, "    const char *kernel, char *err, size_t errlen) {");
  b->indent++;
  pkb_line(b, "if (used.size() && !args)");
  pkb_line(b, "  return !pkc::fail(err, errlen, kernel, \"missing arguments (args is NULL)\");");
  pkb_line(b, "for (const int k : used) {");
  b->indent++;
  pkb_line(b, "bool bound = true;");
  pkb_line(b, "switch (k) {");
  for (int i = 0; i < e->nmembers; i++) {
    pkb_begin(b, "case %d: bound = ", i);
    put_bind_call(b, e->members[i], i);
    pkb_put(b, "; break;\n");
  }
  pkb_line(b, "}");
  pkb_line(b, "if (!bound) return false;");
  b->indent--;
  pkb_line(b, "}");
  pkb_line(b, "return true;");
  b->indent--;
  pkb_line(b, "}");
  pkb_nl(b);
}

static void bind_args(pkb_ctx *c, const pki_func *f, bool args_checked) {
  pkb_buf *b = c->b;
  pki_var *const *args;
  int n = pkb_kernel_args(f, &args);
  if (shares_binder(f)) {
    bool *used = pki_alloc(c->m->arena, sizeof(bool) * (size_t)(n ? n : 1));
    members_used(c->m->arena, f, args, n, used);
    pkb_begin(b, "if (!%s(f, args, {", binder_name(c->m->arena, f->owner));
    for (int i = 0, k = 0; i < n; i++)
      if (used[i])
        pkb_putf(b, "%s%d", !k++ ? "" : k % 16 == 1 ? ",\n        " : ", ", i);
    pkb_put(b, "}, kernel, err, errlen))\n");
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

static void put_rule_offset(pkb_buf *b, const pki_extent_rule *r, int64_t c, const char *obj) {
  if (!r->var) {
    pkb_putf(b, "%lld", (long long)c);
    return;
  }
  if (c)
    pkb_putf(b, "%lld + ", (long long)c);
  if (r->var_coef != 1)
    pkb_putf(b, "%lld * ", (long long)r->var_coef);
  pkb_putf(b, "static_cast<int64_t>(%s.", obj);
  pkb_put_ident(b, r->var->name);
  pkb_put(b, ")");
}

void pkb_put_extent_rule(pkb_buf *b, pki_arena *a, const pki_func *f,
                         const pki_extent_rule *r, const char *obj, bool kernel_var) {
  put_rule_offset(b, r, r->lo, obj);
  pkb_put(b, ", ");
  put_rule_offset(b, r, r->hi, obj);
  pkb_putf(b, ", %s.", obj);
  pkb_put_ident(b, r->view->name);
  pkb_putf(b, ".extent(%d), ", r->dim);
  if (kernel_var)
    pkb_put(b, "kernel");
  else
    pkb_put_cstr(b, f->name);
  pkb_put(b, ", ");
  pkb_put_cstr(b, r->view->name);
  pkb_putf(b, ", %d, ", r->dim);
  const char *work = f->index[r->work]->name;
  if (f->policy == PKI_POLICY_TEAM) /* the member's work index */
    work = pki_sprintf(a, "%s.league_rank()", work);
  pkb_put_cstr(b, work);
}

void pkb_abi_check_extents(pkb_ctx *c, const pki_func *f, const char *functor) {
  pkb_buf *b = c->b;
  for (int i = 0; i < f->extent_rules.n; i++) {
    const pki_extent_rule *r = PKI_AT(f->extent_rules, i, pki_extent_rule);
    if (f->policy == PKI_POLICY_RANGE)
      pkb_begin(b, "if (!pkc::range_fits(begin, end, ");
    else if (f->policy == PKI_POLICY_TEAM)
      pkb_begin(b, "if (!pkc::range_fits(0, policy->league_size, ");
    else
      pkb_begin(b, "if (!pkc::range_fits(policy->begin[%d], policy->end[%d], ", r->work, r->work);
    pkb_put_extent_rule(b, c->m->arena, f, r, functor, true);
    pkb_put(b, ", err, errlen))\n");
    pkb_line(b, "  return PKC_ERROR_VALUE;");
  }
}

void pkb_put_md_launch(pkb_buf *b, const pki_func *f, int rank, bool reduce) {
  int right = f->md_planned ? f->md_contiguous[0] : rank - 1;
  int left = f->md_planned ? f->md_contiguous[1] : 0;
  right = right >= 0 && right < rank ? right : rank - 1;
  left = left >= 0 && left < rank ? left : 0;
  bool rows = f->md_planned ? f->md_rows : true;
  pkb_putf(b, "pkc::md_parallel_%s<pkc::md_%s, %d, %d>(", reduce ? "reduce" : "for",
           rows ? "rows" : "tiles", right, left);
}

/* "Kokkos::parallel_for(kernel, " or, for an MDRange, pkc's launch of it. */
static void put_launch(pkb_ctx *c, const pki_func *f, const char *pattern) {
  pkb_buf *b = c->b;
  if (f->policy == PKI_POLICY_MDRANGE && !c->policy_text && strcmp(pattern, "parallel_scan")) {
    pkb_begin(b, "%s", "");
    pkb_put_md_launch(b, f, f->nindex, strcmp(pattern, "parallel_for") != 0);
    pkb_put(b, "kernel, ");
    return;
  }
  pkb_begin(b, "Kokkos::%s(kernel, ", pattern);
}

static void launch_one(pkb_ctx *c, const pki_func *f, const char *fty, const char *tag,
                       const char *iter) {
  pkb_buf *b = c->b;
  if (f->pattern == PKI_PATTERN_FOR) {
    put_launch(c, f, "parallel_for");
    put_policy(c, f, fty, tag, iter);
    pkb_put(b, ", f);\n");
    return;
  }
  const char *acc = pkb_scalar_ctype(f->acc ? f->acc->type.kind : PKI_F64);
  bool scan = f->pattern == PKI_PATTERN_SCAN;
  put_launch(c, f, scan ? "parallel_scan" : "parallel_reduce");
  put_policy(c, f, fty, tag, iter);
  if (c->results_text) {
    pkb_putf(b, ", f, %s);\n", c->results_text);
    return;
  }
  static const char *const red[] = {NULL, "Kokkos::Prod", "Kokkos::Min", "Kokkos::Max",
                                    "Kokkos::MaxLoc", "Kokkos::MinLoc"};
  if (!scan && pkb_valloc(f))
    pkb_putf(b, ", f, %s<%s, int64_t>(value));\n", red[f->reducer], acc);
  else if (!scan && f->reducer != PKI_REDUCER_SUM)
    pkb_putf(b, ", f, %s<%s>(value));\n", red[f->reducer], acc);
  else
    pkb_putf(b, ", f, %s);\n", scan ? "total" : "value");
}

/* Raises what Python raises inside the kernel (pkc::take_kernel_error). */
static void kernel_errors(pkb_ctx *c, const pki_func *f) {
  const char *where = pki_raising_lines(c->m->arena, f);
  if (!where && c->o->bounds_check)
    where = "a View access";
  if (!where)
    return;
  pkb_line(c->b, "if (const int e = pkc::take_kernel_error())");
  pkb_line(c->b, "  return pkc::kernel_failed(e, kernel, \"%s\", err, errlen);", where);
}

void pkb_abi_launch(pkb_ctx *c, const pki_func *f, const char *fty, const char *tag) {
  pkb_buf *b = c->b;
  bool scan = f->pattern == PKI_PATTERN_SCAN;
  if (f->policy == PKI_POLICY_TEAM)
    pkb_line(b, "if (!pkc::team_fits<%s::%s>(*policy, f, Kokkos::%s(), kernel, err, errlen)) return 1;",
             fty, tag ? tag : pkb_tag_name(c->m->arena, f),
             f->pattern == PKI_PATTERN_FOR ? "ParallelForTag" : "ParallelReduceTag");
  if (pkb_valloc(f))
    pkb_line(b, "Kokkos::ValLocScalar<%s, int64_t> value;", pkb_scalar_ctype(f->acc->type.kind));
  else if (f->pattern != PKI_PATTERN_FOR && !c->results_text)
    pkb_line(b, "%s %s = 0;", pkb_scalar_ctype(f->acc ? f->acc->type.kind : PKI_F64),
             scan ? "total" : "value");
  /* MDRange: the iteration order a policy asks for, chosen at run time; a
   * file that never names one (pk.Iterate / iterate=) gets the default only
   * (any order gives the same results; each costs an instantiation) */
  bool orders = c->names_iterate;
  if (f->policy == PKI_POLICY_MDRANGE && !orders) {
    pkb_line(b, "if (!pkc::tiles_fit(*policy, %d, kernel, err, errlen)) return 1;", f->nindex);
    launch_one(c, f, fty, tag, NULL);
  } else if (f->policy == PKI_POLICY_MDRANGE) {
    pkb_line(b, "if (!pkc::tiles_fit(*policy, %d, kernel, err, errlen)) return 1;", f->nindex);
    pkb_line(b, "switch (policy->iterate) {");
    pkb_line(b, "case 1:");
    b->indent++;
    launch_one(c, f, fty, tag, "Right");
    pkb_line(b, "break;");
    b->indent--;
    pkb_line(b, "case 2:");
    b->indent++;
    launch_one(c, f, fty, tag, "Left");
    pkb_line(b, "break;");
    b->indent--;
    pkb_line(b, "default:");
    b->indent++;
    launch_one(c, f, fty, tag, NULL);
    b->indent--;
    pkb_line(b, "}");
  } else
    launch_one(c, f, fty, tag, NULL);
  kernel_errors(c, f);
  if (pkb_valloc(f)) { /* two result slots: the extremum and its location */
    pkb_line(b, "pkc::store_result(result, value.val);");
    pkb_line(b, "result[1].i = value.loc;");
  } else if (f->pattern != PKI_PATTERN_FOR && !c->results_text)
    pkb_line(b, "pkc::store_result(result, %s);", scan ? "total" : "value");
}

/* @pk.main: bind the members, run the host code, copy written scalars back. */
static void launch_main(pkb_ctx *c, const pki_func *f) {
  pkb_buf *b = c->b;
  pkb_line(b, "%s(f);", pkb_main_name(c->m->arena, f));
  kernel_errors(c, f);
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

static void dtype_of(pki_kind k, const char **code, int *bits) {
  *bits = pki_kind_bits(k);
  *code = k == PKI_BOOL ? "pkc::dl_bool"
          : pki_is_float(k) ? "kDLFloat"
          : pki_is_signed(k) ? "kDLInt"
          : pki_is_int(k) ? "kDLUInt"
                          : "0";
}

static const char *layout_code(pki_layout l) {
  return l == PKI_LAYOUT_RIGHT  ? "PKC_LAYOUT_RIGHT"
         : l == PKI_LAYOUT_LEFT ? "PKC_LAYOUT_LEFT"
                                : "pkc::layout_default";
}

static const char *access_code(unsigned acc) {
  static const char *const t[] = {"0", "PKC_ACCESS_READ", "PKC_ACCESS_WRITE",
                                  "PKC_ACCESS_READ | PKC_ACCESS_WRITE"};
  return t[acc & 3];
}

void pkb_abi_param_desc(pkb_ctx *c, const pki_var *v, const char *name, unsigned access,
                        bool from_global) {
  pkb_buf *b = c->b;
  bool view = v->type.kind == PKI_VIEW, pool = v->type.kind == PKI_POOL;
  const char *code = "0";
  int bits = 0;
  if (pki_is_class_view(v->type)) { /* fields and layout come with the argument */
    pkb_begin(b, "    {");
    pkb_put_cstr(b, name);
    pkb_putf(b, ", PKC_PARAM_CLASS_VIEW, 0, 0, %d, %s, %s%s},\n", v->type.rank,
             v->type.layout == PKI_LAYOUT_AOS   ? "PKC_LAYOUT_AOS"
             : v->type.layout == PKI_LAYOUT_SOA ? "PKC_LAYOUT_SOA"
                                                : "PKC_LAYOUT_DEFAULT",
             access_code(access ? access : PKI_ACCESS_READ),
             from_global ? ", PKC_PARAM_FROM_GLOBAL" : ", 0");
    return;
  }
  if (!pool)
    dtype_of(view ? v->type.elem : v->type.kind, &code, &bits);
  pkb_begin(b, "    {");
  pkb_put_cstr(b, name);
  pkb_putf(b, ", %s, %s, %d, %d, %s, %s%s},\n",
           view ? "PKC_PARAM_VIEW" : pool ? "PKC_PARAM_POOL" : "PKC_PARAM_SCALAR", code, bits,
           view ? v->type.rank : pool ? (v->type.rank == 1024 ? 1024 : 64) : 0,
           view ? layout_code(v->type.layout) : "PKC_LAYOUT_DEFAULT",
           access_code(access ? access : PKI_ACCESS_READ),
           from_global ? ", PKC_PARAM_FROM_GLOBAL" : ", 0");
}

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

void pkb_abi_kernel_desc(pkb_ctx *c, const char *name, const char *entity, int pattern,
                         int policy, int reducer, int nparams, const char *params,
                         const pki_var *acc, unsigned line, const char *wrapper,
                         bool inferred) {
  static const char *const pat[] = {"PKC_PATTERN_FOR", "PKC_PATTERN_REDUCE",
                                    "PKC_PATTERN_SCAN", "PKC_PATTERN_MAIN"};
  static const char *const pol[] = {"PKC_POLICY_RANGE", "PKC_POLICY_MDRANGE",
                                    "PKC_POLICY_TEAM"};
  static const char *const red[] = {"PKC_REDUCER_SUM", "PKC_REDUCER_PROD",
                                    "PKC_REDUCER_MIN", "PKC_REDUCER_MAX",
                                    "PKC_REDUCER_MAXLOC", "PKC_REDUCER_MINLOC"};
  pkb_buf *b = c->b;
  const char *code = "0";
  int bits = 0;
  if (acc)
    dtype_of(acc->type.kind, &code, &bits);
  pkb_begin(b, "    {");
  pkb_put_cstr(b, name);
  pkb_put(b, ", ");
  pkb_put_cstr(b, entity);
  pkb_putf(b, ", %s, %s, %s, %d, %s, %s, %d, %u, %s, %s},\n", pat[pattern], pol[policy],
           red[reducer], nparams,
           params ? params : "nullptr", code, bits, line, wrapper,
           inferred ? "PKC_KERNEL_INFERRED" : "0");
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
  pkb_put(b, "/* The module's descriptor table. */\nconst pkc_module_desc *pkc_module_v2(void);\n\n");
  pkb_putf(b, "#ifdef __cplusplus\n}\n#endif\n\n#endif /* PKC_%s_H */\n", m->name);
}
