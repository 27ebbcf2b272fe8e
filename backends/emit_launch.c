/*
 * emit_launch.c - the pieces of a C entry point that emit_abi.c's wrappers and
 * the fused host kernels (emit_fusion.c) share: the policy check, the launch
 * range checked against the Views' extents, the Kokkos launch of a kernel,
 * the errors raised inside it, and the descriptor's parameter and kernel rows.
 */
#include <stdio.h>
#include <string.h>

#include "access.h"
#include "pkb_priv.h"

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

/* Where every team scratch View f takes at level is declared at the top of
 * its body with constant extents (`pk.ScratchView1D(m.team_scratch(0))`,
 * PyKokkos' extent-less form, or literal extents): the bytes they need, as
 * Kokkos counts them (ScratchView::shmem_size), into b; false otherwise. */
/* s declares a scratch View (`x = pk.ScratchView1D(m.team_scratch(L), ...)`):
 * the pk.ScratchView call, *level = L, or -1 where L is not a constant or the
 * View is not taken from team scratch (m.thread_scratch); else NULL. */
static const pki_expr *team_scratch_decl(const pki_stmt *s, int64_t *level) {
  const pki_expr *v = pki_uncast(s->kind == PKI_S_DECL ? s->value : NULL);
  if (!v || v->kind != PKI_E_INTRINSIC || v->intrinsic != PKI_INTRINSIC_SCRATCH_VIEW ||
      v->nargs < 2)
    return NULL;
  const pki_expr *space = v->args[0];
  if (space->kind != PKI_E_INTRINSIC || space->intrinsic != PKI_INTRINSIC_TEAM_SCRATCH ||
      space->nargs < 2 || !pki_const_int(space->args[1], level))
    *level = -1;
  return v;
}

static bool team_scratch_constant(pkb_buf *b, const pki_func *f, int level) {
  int n = 0;
  for (int i = 0; i < f->body.n; i++) {
    const pki_stmt *s = f->body.stmts[i];
    int64_t lv, k;
    const pki_expr *v = team_scratch_decl(s, &lv);
    if (!v || lv != level)
      continue;
    pkb_putf(b, "%spkc::ScratchView<%s %.*s>::shmem_size(", n++ ? " + " : "",
             pkb_scalar_ctype(s->var->type.elem), v->nargs - 1, "********");
    for (int j = 1; j < v->nargs; j++) {
      if (!pki_const_int(v->args[j], &k) || k < 0)
        return false;
      pkb_putf(b, "%s%lld", j > 1 ? ", " : "", (long long)k);
    }
    pkb_put(b, ")");
  }
  return n > 0 && pki_scratch_use_count(&f->body, level, false) == n;
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
    bool copied = false;
    for (int level = 0; level < 2; level++)
      for (int th = 0; th < 2; th++)
        if (pki_uses_scratch(&f->body, level, th)) { /* PerThread sizes count for the team */
          pkb_buf bytes;
          pkb_buf_init(&bytes);
          if (!th && !pki_uses_scratch(&f->body, level, true) &&
              team_scratch_constant(&bytes, f, level)) {
            /* sizes known here: a policy without any asks for them (PyKokkos
             * runs such kernels without set_scratch_size) */
            if (!copied)
              pkb_line(b, "pkc_policy sized;");
            copied = true;
            pkb_line(b, "if (policy->scratch_team[%d] <= 0 && policy->scratch_thread[%d] <= 0) {",
                     level, level);
            pkb_line(b, "  sized = *policy;");
            pkb_line(b, "  sized.scratch_team[%d] = %.*s;", level, (int)bytes.len, bytes.data);
            pkb_line(b, "  policy = &sized;");
            pkb_line(b, "}");
            pkb_buf_free(&bytes);
            continue;
          }
          pkb_buf_free(&bytes);
          if (th)
            pkb_line(b, "if (policy->scratch_thread[%d] <= 0) {", level);
          else
            pkb_line(b, "if (policy->scratch_team[%d] <= 0 && policy->scratch_thread[%d] <= 0) {",
                     level, level);
          pkb_line(b, "  pkc::fail(err, errlen, kernel, \"uses %s scratch level %d but the policy "
                      "sets no scratch size; call set_scratch_size\");",
                   th ? "thread" : "team", level);
          pkb_line(b, "  return PKC_ERROR_VALUE; // ValueError, as a too small size");
          pkb_line(b, "}");
        }
  } else {
    pkb_line(b, "if (!policy || policy->kind != PKC_POLICY_MDRANGE || policy->rank != %d)",
             f->nindex);
    pkb_line(b, "  return pkc::fail(err, errlen, kernel, \"expected an MDRangePolicy of rank %d\");",
             f->nindex);
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

bool pkb_put_extent_guard(pkb_buf *b, const struct pki_extent_rule *r, const char *obj) {
  const pki_extent_guard *g = r->guard;
  if (!g || (!g->view && !g->var))
    return false; /* always, or in a loop that runs a constant number of times */
  pkb_putf(b, "static_cast<int64_t>(%s.", obj);
  pkb_put_ident(b, g->view ? g->view->name : g->var->name);
  if (g->view)
    pkb_putf(b, ".extent(%d)", g->dim);
  pkb_putf(b, ") > %lld", (long long)g->begin);
  return true;
}

/* e's value at the launch, from the functor obj's members: constants,
 * parameters the kernel never assigns, their Views' extents, and + - * of
 * those; false (nothing written) if e is anything else. */
static bool put_launch_value(pkb_ctx *c, pkb_buf *b, const pki_func *f, const pki_expr *e,
                             const char *obj) {
  e = pki_uncast(e);
  if (!e)
    return false;
  if (e->kind == PKI_E_INT) {
    pkb_putf(b, "int64_t(%lld)", (long long)e->ival);
    return true;
  }
  if (e->kind == PKI_E_VAR && e->var->kind == PKI_VAR_PARAM && pki_is_int(e->var->type.kind) &&
      !pki_block_assigns(&f->body, e->var)) {
    pkb_putf(b, "int64_t(%s.", obj);
    pkb_put_ident(b, e->var->name);
    pkb_put(b, ")");
    return true;
  }
  if (e->kind == PKI_E_EXTENT && e->args[0]->kind == PKI_E_VAR &&
      e->args[0]->var->kind == PKI_VAR_PARAM) {
    pkb_putf(b, "int64_t(%s.", obj);
    pkb_put_ident(b, e->args[0]->var->name);
    pkb_putf(b, ".extent(%lld))", (long long)e->ival);
    return true;
  }
  if (e->kind == PKI_E_BINARY &&
      (e->op == PKI_OP_ADD || e->op == PKI_OP_SUB || e->op == PKI_OP_MUL)) {
    pkb_put(b, "(");
    if (!put_launch_value(c, b, f, e->args[0], obj))
      return false;
    pkb_putf(b, " %s ", e->op == PKI_OP_ADD ? "+" : e->op == PKI_OP_SUB ? "-" : "*");
    if (!put_launch_value(c, b, f, e->args[1], obj))
      return false;
    pkb_put(b, ")");
    return true;
  }
  return false;
}

/* The bytes the team scratch Views declared at the top of team kernel f's
 * body take at level (their elements, padding aside), as a C++ expression
 * over the functor obj, into b; false if some size is not known at the launch. */
static bool team_scratch_bytes(pkb_ctx *c, pkb_buf *b, const pki_func *f, int level,
                               const char *obj) {
  int n = 0;
  for (int i = 0; i < f->body.n; i++) {
    const pki_stmt *s = f->body.stmts[i];
    int64_t lv;
    const pki_expr *v = team_scratch_decl(s, &lv);
    if (!v)
      continue;
    if (lv < 0)
      return false;
    if (lv != level)
      continue;
    pkb_putf(b, "%sint64_t(sizeof(%s))", n++ ? " + " : "", pkb_scalar_ctype(s->var->type.elem));
    for (int k = 1; k < v->nargs; k++) {
      pkb_put(b, " * ");
      if (!put_launch_value(c, b, f, v->args[k], obj))
        return false;
    }
  }
  return n > 0;
}

/* Team scratch Views larger than the policy gives the team: Kokkos hands
 * out a null pointer, which the kernel would then write through. */
static void check_team_scratch(pkb_ctx *c, const pki_func *f, const char *functor) {
  for (int level = 0; level < 2; level++) {
    pkb_buf bytes;
    pkb_buf_init(&bytes);
    if (team_scratch_bytes(c, &bytes, f, level, functor)) {
      pkb_line(c->b, "if (!pkc::team_scratch_fits(*policy, %d, %.*s, kernel, err, errlen))", level,
               (int)bytes.len, bytes.data ? bytes.data : "");
      pkb_line(c->b, "  return PKC_ERROR_VALUE;");
    }
    pkb_buf_free(&bytes);
  }
}

void pkb_abi_check_extents(pkb_ctx *c, const pki_func *f, const char *functor) {
  pkb_buf *b = c->b;
  if (f->policy == PKI_POLICY_TEAM)
    check_team_scratch(c, f, functor);
  for (int i = 0; i < f->extent_rules.n; i++) {
    const pki_extent_rule *r = PKI_AT(f->extent_rules, i, pki_extent_rule);
    pkb_begin(b, "if (");
    if (pkb_put_extent_guard(b, r, functor))
      pkb_put(b, " && ");
    if (f->policy == PKI_POLICY_RANGE)
      pkb_put(b, "!pkc::range_fits(begin, end, ");
    else if (f->policy == PKI_POLICY_TEAM)
      pkb_put(b, "!pkc::range_fits(0, policy->league_size, ");
    else
      pkb_putf(b, "!pkc::range_fits(policy->begin[%d], policy->end[%d], ", r->work, r->work);
    pkb_put_extent_rule(b, c->m->arena, f, r, functor, true);
    pkb_put(b, ", err, errlen))\n");
    pkb_line(b, "  return PKC_ERROR_VALUE;");
  }
}

void pkb_put_md_launch(pkb_buf *b, const pki_func *f, int rank, const char *pattern) {
  int right = f->md_planned ? f->md_contiguous[0] : rank - 1;
  int left = f->md_planned ? f->md_contiguous[1] : 0;
  right = right >= 0 && right < rank ? right : rank - 1;
  left = left >= 0 && left < rank ? left : 0;
  bool rows = f->md_planned ? f->md_rows : true;
  pkb_putf(b, "pkc::md_parallel_%s<pkc::md_%s, %d, %d>(", pattern, rows ? "rows" : "tiles", right,
           left);
}

/* "Kokkos::parallel_for(kernel, " or, for an MDRange, pkc's launch of it
 * (pattern "parallel_sum": pkc::md_parallel_sum, or with a RangePolicy
 * pkc::range_parallel_reduce). */
static void put_launch(pkb_ctx *c, const pki_func *f, const char *pattern) {
  pkb_buf *b = c->b;
  if (f->policy == PKI_POLICY_MDRANGE && !c->policy_text && strcmp(pattern, "parallel_scan")) {
    pkb_begin(b, "%s", "");
    pkb_put_md_launch(b, f, f->nindex, pattern + strlen("parallel_"));
    pkb_put(b, "kernel, ");
    return;
  }
  if (!strcmp(pattern, "parallel_sum")) {
    pkb_begin(b, "pkc::range_parallel_reduce(kernel, ");
    return;
  }
  pkb_begin(b, "Kokkos::%s(kernel, ", pattern);
}

/* A reduction whose one accumulator only adds, launched as pkc's sum
 * (partial sums in registers on host backends). */
static bool launch_as_sum(const pkb_ctx *c, const pki_func *f) {
  return f->pattern == PKI_PATTERN_REDUCE && f->reducer == PKI_REDUCER_SUM && !pkb_valloc(f) &&
         (f->policy == PKI_POLICY_RANGE || f->policy == PKI_POLICY_MDRANGE) &&
         pki_acc_only_summed(f) && !c->policy_text && !c->results_text;
}

/* ", pkc::apart(f.y, f.x, f.idx)": each View f writes against every other View
 * it touches (ir/range.c), "&&" between written Views; a RangePolicy's or an
 * MDRange's (host rows) launch. */
static void put_apart(pkb_buf *b, const pki_func *f) {
  for (int w = 0; w < f->range_written.n; w++) {
    const pki_var *v = PKI_AT(f->range_written, w, pki_var);
    pkb_put(b, w ? " && pkc::apart(f." : ", pkc::apart(f.");
    pkb_put_ident(b, v->name);
    for (int k = 0; k < f->range_written.n + f->range_others.n; k++) {
      const pki_var *o = k < f->range_written.n ? PKI_AT(f->range_written, k, pki_var)
                                                : PKI_AT(f->range_others, k - f->range_written.n, pki_var);
      if (o == v)
        continue;
      pkb_put(b, ", f.");
      pkb_put_ident(b, o->name);
    }
    pkb_put(b, ")");
  }
}

/* A RangePolicy parallel_for whose work items write only their own elements
 * (ir/range.c): pkc::range_parallel_for, or pkc::range_copy for dst[i] = src[i]. */
static void launch_own_range(pkb_ctx *c, const pki_func *f, const char *fty, const char *tag) {
  pkb_buf *b = c->b;
  pkb_begin(b, "pkc::range_%s(kernel, ", f->range_copy_dst ? "copy" : "parallel_for");
  put_policy(c, f, fty, tag, NULL);
  pkb_put(b, ", f");
  if (f->range_copy_dst) {
    pkb_put(b, ", f.");
    pkb_put_ident(b, f->range_copy_dst->name);
    pkb_put(b, ", f.");
    pkb_put_ident(b, f->range_copy_src->name);
  }
  put_apart(b, f);
  pkb_put(b, ");\n");
}

static void launch_one(pkb_ctx *c, const pki_func *f, const char *fty, const char *tag,
                       const char *iter) {
  pkb_buf *b = c->b;
  if (f->pattern == PKI_PATTERN_FOR && f->policy == PKI_POLICY_RANGE && f->range_planned &&
      f->range_own && !c->policy_text) {
    launch_own_range(c, f, fty, tag);
    return;
  }
  if (f->pattern == PKI_PATTERN_FOR) {
    put_launch(c, f, "parallel_for");
    put_policy(c, f, fty, tag, iter);
    pkb_put(b, ", f");
    /* rows free of loop-carried dependences: f's own functor (tag NULL; a
     * fused kernel's functor has other members) */
    bool own = f->policy == PKI_POLICY_MDRANGE && !c->policy_text && !tag;
    bool apart = own && f->range_planned && f->range_own;
    if (apart)
      put_apart(b, f);
    /* the gate pk.Graph may set (pkc_gate), as the footprint table says */
    if (own && pkb_launch_gated(f))
      pkb_put(b, apart ? ", policy->gate" : ", false, policy->gate");
    pkb_put(b, ");\n");
    return;
  }
  bool scan = f->pattern == PKI_PATTERN_SCAN;
  if (launch_as_sum(c, f)) {
    put_launch(c, f, "parallel_sum");
    put_policy(c, f, fty, tag, iter);
    pkb_put(b, ", f, value);\n");
    return;
  }
  put_launch(c, f, scan ? "parallel_scan" : "parallel_reduce");
  put_policy(c, f, fty, tag, iter);
  if (c->results_text) {
    pkb_putf(b, ", f, %s);\n", c->results_text);
    return;
  }
  if (!scan && pkb_valloc(f))
    pkb_putf(b, ", f, %s(value));\n", pkb_valloc_reducer(c->m->arena, f));
  else if (!scan && f->reducer != PKI_REDUCER_SUM) /* (LAnd/LOr of a bool: an int32_t) */
    pkb_putf(b, ", f, %s<%s>(value));\n", pkb_kokkos_reducer(f->reducer), pkb_acc_ctype(f));
  else
    pkb_putf(b, ", f, %s);\n", scan ? "total" : "value");
}

/* Raises what Python raises inside the kernel (pkc::take_kernel_error). */
void pkb_abi_kernel_errors(pkb_ctx *c, const pki_func *f) {
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
    pkb_line(b, "%s value;", pkb_valloc_type(c->m->arena, f));
  else if (f->pattern != PKI_PATTERN_FOR && !c->results_text)
    pkb_line(b, "%s %s = 0;", f->acc ? pkb_acc_ctype(f) : pkb_scalar_ctype(PKI_F64),
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
  pkb_abi_kernel_errors(c, f);
  if (pkb_valloc(f) && f->reducer == PKI_REDUCER_MINMAX) { /* the minimum, the maximum */
    pkb_line(b, "pkc::store_result(result, value.min_val);");
    pkb_line(b, "pkc::store_result(result + 1, value.max_val);");
  } else if (pkb_valloc(f) && f->reducer == PKI_REDUCER_MINMAXLOC) { /* and their locations */
    pkb_line(b, "pkc::store_result(result, value.min_val);");
    pkb_line(b, "result[1].i = value.min_loc;");
    pkb_line(b, "pkc::store_result(result + 2, value.max_val);");
    pkb_line(b, "result[3].i = value.max_loc;");
  } else if (pkb_valloc(f)) { /* two result slots: the extremum and its location */
    pkb_line(b, "pkc::store_result(result, value.val);");
    pkb_line(b, "result[1].i = value.loc;");
  } else if (f->pattern != PKI_PATTERN_FOR && !c->results_text)
    pkb_line(b, "pkc::store_result(result, %s);",
             f->acc ? pkb_acc_result(c->m->arena, f, scan ? "total" : "value")
                    : scan ? "total" : "value");
}

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
  bool by_default = view && v->type.rank > 1 && v->type.layout == PKI_LAYOUT_DEFAULT;
  if (!pool)
    dtype_of(view ? v->type.elem : v->type.kind, &code, &bits);
  pkb_begin(b, "    {");
  pkb_put_cstr(b, name);
  pkb_putf(b, ", %s, %s, %d, %d, %s, %s%s},\n",
           view ? "PKC_PARAM_VIEW" : pool ? "PKC_PARAM_POOL" : "PKC_PARAM_SCALAR", code, bits,
           view ? v->type.rank : pool ? (v->type.rank == 1024 ? 1024 : 64) : 0,
           view ? layout_code(v->type.layout) : "PKC_LAYOUT_DEFAULT",
           access_code(access ? access : PKI_ACCESS_READ),
           from_global && by_default ? ", PKC_PARAM_FROM_GLOBAL | PKC_PARAM_LAYOUT_DEFAULT"
           : from_global             ? ", PKC_PARAM_FROM_GLOBAL"
           : by_default              ? ", PKC_PARAM_LAYOUT_DEFAULT"
                                     : ", 0");
}

void pkb_abi_kernel_desc(pkb_ctx *c, const char *name, const char *entity, int pattern,
                         int policy, int reducer, int nparams, const char *params,
                         const pki_var *acc, unsigned line, const char *wrapper,
                         bool inferred) {
  static const char *const pat[] = {"PKC_PATTERN_FOR", "PKC_PATTERN_REDUCE",
                                    "PKC_PATTERN_SCAN", "PKC_PATTERN_MAIN"};
  static const char *const pol[] = {"PKC_POLICY_RANGE", "PKC_POLICY_MDRANGE",
                                    "PKC_POLICY_TEAM"};
  static const char *const red[] = {"PKC_REDUCER_SUM",    "PKC_REDUCER_PROD",
                                    "PKC_REDUCER_MIN",    "PKC_REDUCER_MAX",
                                    "PKC_REDUCER_MAXLOC", "PKC_REDUCER_MINLOC",
                                    "PKC_REDUCER_BAND",   "PKC_REDUCER_BOR",
                                    "PKC_REDUCER_LAND",   "PKC_REDUCER_LOR",
                                    "PKC_REDUCER_MINMAX", "PKC_REDUCER_MINMAXLOC"};
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
