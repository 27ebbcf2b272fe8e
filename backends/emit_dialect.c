/*
 * emit_dialect.c - the dialect beyond range kernels: nested team/vector
 * loops and pk.single as [&] lambdas, device asserts, @pk.main dispatches
 * (functor or KOKKOS_LAMBDA), and the pk.* intrinsics.
 */
#include <stdio.h>
#include <string.h>

#include "access.h"
#include "pkb_priv.h"

/* ------------------------------------------------------------ analysis */

/* Is v declared (PKI_S_DECL) anywhere in f's body or its parents' bodies? */
static bool declared_in(const pki_func *f, const pki_var *v) {
  return v->kind != PKI_VAR_LOCAL || (v->uses & PKI_USE_DECLARED);
}

void pkb_void_unread(pkb_ctx *c, const pki_func *f, const pki_var *v) {
  if (v && !pkb_var_read(f, v)) {
    pkb_begin(c->b, "(void)");
    pkb_put_ident(c->b, v->name);
    pkb_put(c->b, ";\n");
  }
}

/* ------------------------------------------------------------ closures */

static void put_index_param(pkb_buf *b, const pki_var *v) {
  if (v->type.kind == PKI_TEAM_MEMBER)
    pkb_put(b, "const pkc::TeamMember &");
  else
    pkb_put(b, v->access & PKI_ACCESS_WRITE ? "int64_t " : "const int64_t ");
  pkb_put_ident(b, v->name);
}

/* "[&](const int64_t j, double &acc) {" + body + "}" (no trailing text). */
static void closure(pkb_ctx *c, const pki_func *f, const char *capture) {
  pkb_buf *b = c->b;
  pkb_put(b, capture);
  pkb_put(b, "(");
  for (int i = 0; i < f->nindex; i++) {
    if (i)
      pkb_put(b, ", ");
    put_index_param(b, f->index[i]);
  }
  if (f->acc) {
    pkb_put(b, f->nindex ? ", " : "");
    pkb_put_acc_type(b, f); /* a sum of 8- or 16-bit integers adds in 32 bits */
    pkb_put(b, " &");
    pkb_put_ident(b, f->acc->name);
  }
  if (f->final || f->pattern == PKI_PATTERN_SCAN) {
    pkb_put(b, ", const bool ");
    pkb_put_ident(b, f->final ? f->final->name : "final");
  }
  pkb_put(b, ") {\n");
  const pki_func *saved = c->fn;
  c->fn = f;
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
  c->fn = saved;
  pkb_begin(b, "}");
}

static const char *acc_ctype(const pki_func *f) {
  return f && f->acc ? pkb_acc_ctype(f) : pkb_scalar_ctype(PKI_F64);
}

/* ", x" or ", Kokkos::Max<double>(x)" for a reduction into text `into`. */
static void put_reduce_target(pkb_ctx *c, const pki_func *f, const pki_expr *target,
                              const char *into) {
  bool wrap = f->pattern == PKI_PATTERN_REDUCE && f->reducer != PKI_REDUCER_SUM;
  pkb_put(c->b, ", ");
  if (wrap)
    pkb_putf(c->b, "%s<%s>(", pkb_kokkos_reducer(f->reducer), acc_ctype(f));
  if (target)
    pkb_emit_expr(c, target);
  else
    pkb_put(c->b, into);
  if (wrap)
    pkb_put(c->b, ")");
}

/* Can Kokkos reduce straight into the target (an lvalue of the acc's type)? */
static bool direct_target(const pki_func *f, const pki_expr *t) {
  return t && t->kind == PKI_E_VAR && f->acc && t->var->type.kind == f->acc->type.kind &&
         !pkb_acc_widened(f);
}

static void put_bound(pkb_ctx *c, const pki_expr *e) {
  bool cast = e->type.kind != PKI_I64 && e->kind != PKI_E_INT;
  if (cast)
    pkb_put(c->b, "static_cast<int64_t>(");
  pkb_emit_expr(c, e);
  if (cast)
    pkb_put(c->b, ")");
}

static bool zero_literal(const pki_expr *e) {
  e = pki_uncast(e);
  return !e || (e->kind == PKI_E_INT && e->ival == 0);
}

/* "begin, end" of a RangePolicy dispatch (`pk.parallel_for(n, ...)`: 0, n). */
static void put_range_bounds(pkb_ctx *c, const pki_stmt *s) {
  if (s->nargs >= 2) {
    put_bound(c, s->args[0]);
    pkb_put(c->b, ", ");
    put_bound(c, s->args[1]);
  } else {
    pkb_put(c->b, "0, ");
    if (s->nargs)
      put_bound(c, s->args[0]);
    else
      pkb_put(c->b, "0");
  }
}

/* "m, b, e" of a nested pattern over a team range (b: 0 when not given). */
static void put_member_bounds(pkb_ctx *c, const pki_stmt *s) {
  pkb_emit_expr(c, s->args[0]);
  pkb_put(c->b, ", ");
  if (s->nargs > 2)
    put_bound(c, s->args[1]);
  else
    pkb_put(c->b, "0");
  pkb_put(c->b, ", ");
  put_bound(c, s->args[s->nargs > 2 ? 2 : 1]);
}

static void put_nested_range(pkb_ctx *c, const pki_stmt *s) {
  static const char *const names[] = {"TeamThreadRange", "ThreadVectorRange", "TeamVectorRange"};
  pkb_putf(c->b, "Kokkos::%s(", names[s->range]);
  pkb_emit_expr(c, s->args[0]);
  if (s->nargs > 2 && !zero_literal(s->args[1])) {
    pkb_put(c->b, ", ");
    put_bound(c, s->args[1]);
  }
  pkb_put(c->b, ", ");
  put_bound(c, s->args[s->nargs > 2 ? 2 : 1]);
  pkb_put(c->b, ")");
}

/* The results a launch computes: those of dispatches reds[0..n-1] (one,
 * or the reductions of a fused kernel, in the order of its reducers); tmp[k]
 * is the temporary reds[k] reduces into, NULL when it reduces straight into
 * its target or has no result. */
typedef struct results {
  const pki_stmt *const *reds;
  int n;
  const char **tmp;
  bool block; /* the temporaries are declared in a block */
} results;

static bool has_result(const pki_stmt *s) {
  const pki_func *f = s->closure;
  return f->pattern == PKI_PATTERN_REDUCE || (f->pattern == PKI_PATTERN_SCAN && s->target);
}

/* Declares the result variables no statement declares, then a temporary
 * (in a block) for each result discarded or needing a conversion. */
static void open_results(pkb_ctx *c, results *r) {
  for (int k = 0; k < r->n; k++) {
    const pki_expr *t = r->reds[k]->target;
    if (has_result(r->reds[k]) && t && t->kind == PKI_E_VAR && !declared_in(c->fn, t->var)) {
      pkb_begin(c->b, "%s", "");
      pkb_put_type(c->b, t->var->type);
      pkb_put(c->b, " ");
      pkb_put_ident(c->b, t->var->name);
      pkb_put(c->b, " = 0;\n");
    }
  }
  r->block = false;
  for (int k = 0; k < r->n; k++) {
    const pki_stmt *s = r->reds[k];
    r->tmp[k] = NULL;
    if (!has_result(s) || direct_target(s->closure, s->target))
      continue;
    if (!r->block) {
      pkb_line(c->b, "{");
      c->b->indent++;
      r->block = true;
    }
    r->tmp[k] = r->n == 1 ? "pkc_result" : pki_sprintf(c->m->arena, "pkc_result%d", k);
    pkb_line(c->b, "%s %s = 0;", acc_ctype(s->closure), r->tmp[k]);
  }
}

/* Copies the temporaries into their targets and closes the block. */
static void close_results(pkb_ctx *c, const results *r) {
  for (int k = 0; k < r->n; k++) {
    const pki_stmt *s = r->reds[k];
    if (!r->tmp[k] || !s->target)
      continue;
    pkb_begin(c->b, "%s", "");
    pkb_emit_expr(c, s->target);
    if (s->target->type.kind != PKI_VOID && pki_is_int(s->target->type.kind) &&
        (!pki_is_int(s->closure->acc ? s->closure->acc->type.kind : PKI_I64) ||
         pkb_acc_widened(s->closure))) {
      /* a float result, or a sum widened to 32 bits (pkb_acc_ctype), into an integer */
      pkb_put(c->b, " = static_cast<");
      pkb_put_type(c->b, s->target->type);
      pkb_putf(c->b, ">(%s);\n", r->tmp[k]);
    } else {
      pkb_putf(c->b, " = %s;\n", r->tmp[k]);
    }
  }
  if (r->block) {
    c->b->indent--;
    pkb_line(c->b, "}");
  }
}

static void nested(pkb_ctx *c, const pki_stmt *s);
static const char *atomic_name(pki_intrinsic id);

void pkb_emit_nested(pkb_ctx *c, const pki_stmt *s) {
  int lane = s->range == PKI_RANGE_THREAD_VECTOR || s->range == PKI_RANGE_TEAM_VECTOR;
  c->lanes += lane;
  nested(c, s);
  c->lanes -= lane;
}

/* The team member of the team workunit whose thread-level code (its body, a
 * TeamThreadRange body: what every vector lane of a thread runs alike on
 * GPUs) is being emitted, else NULL. */
static const pki_var *thread_level_member(const pkb_ctx *c) {
  const pki_func *r = c->fn;
  if (!r || c->lanes)
    return NULL;
  while (r->parent && r->is_closure)
    r = r->parent;
  return r->is_workunit && r->policy == PKI_POLICY_TEAM && r->nindex > 0 &&
                 r->index[0]->type.kind == PKI_TEAM_MEMBER
             ? r->index[0]
             : NULL;
}

static bool is_atomic(const pki_expr *e) {
  return e && e->kind == PKI_E_INTRINSIC &&
         (atomic_name(e->intrinsic) || e->intrinsic == PKI_INTRINSIC_ATOMIC_INCREMENT ||
          e->intrinsic == PKI_INTRINSIC_ATOMIC_DECREMENT);
}

/* An atomic update in a team kernel's thread-level code: on GPUs each vector
 * lane of the thread would make it (Kokkos runs such code on every lane), so
 * with a vector length above 1 a count grew by that factor. It runs once per
 * thread in Kokkos::single(PerThread), a fetched value broadcast to the
 * lanes (as a hand-written Kokkos kernel does). A statement `atomic(...)`,
 * `x = atomic_fetch_*(...)` or `x: T = atomic_fetch_*(...)`; false otherwise. */
bool pkb_emit_atomic_once(pkb_ctx *c, const pki_stmt *s) {
  const pki_var *m;
  if (!is_atomic(s->value) || !(m = thread_level_member(c)))
    return false;
  const pki_var *to = s->kind == PKI_S_DECL ? s->var
                      : s->kind == PKI_S_ASSIGN && s->target && s->target->kind == PKI_E_VAR
                          ? s->target->var
                          : NULL;
  if (s->kind != PKI_S_EXPR && (!to || to->kind != PKI_VAR_LOCAL ||
                                to->type.kind != s->value->type.kind))
    return false;
  pkb_buf *b = c->b;
  if (s->kind == PKI_S_DECL) {
    pkb_begin(b, "%s", "");
    pkb_put_type(b, to->type);
    pkb_put(b, " ");
    pkb_put_ident(b, to->name);
    pkb_put(b, " = 0;\n");
  }
  pkb_begin(b, "Kokkos::single(Kokkos::PerThread(");
  pkb_put_ident(b, m->name);
  if (to) {
    pkb_put(b, "), [&](");
    pkb_put_type(b, to->type);
    pkb_put(b, " &pkc_fetched) { pkc_fetched = ");
  } else {
    pkb_put(b, "), [&]() { ");
  }
  pkb_emit_expr(c, s->value);
  pkb_put(b, "; }");
  if (to) {
    pkb_put(b, ", ");
    pkb_put_ident(b, to->name);
  }
  pkb_put(b, ");\n");
  return true;
}

static void nested(pkb_ctx *c, const pki_stmt *s) {
  pkb_buf *b = c->b;
  const pki_func *f = s->closure;
  if (!f || s->nargs < 2) {
    pkb_line(b, "// (malformed nested pattern)");
    return;
  }
  const pki_stmt *one[] = {s};
  const char *tmps[1];
  results r = {one, 1, tmps, false};
  open_results(c, &r);
  const char *tmp = tmps[0];
  if (s->range == PKI_RANGE_TEAM_THREAD_MD) {
    bool red = f->pattern == PKI_PATTERN_REDUCE;
    pkb_begin(b, "pkc::team_thread_md_%s(", red ? "reduce" : "for");
    pkb_emit_expr(c, s->args[0]);
    for (int i = 1; i < s->nargs; i++) {
      pkb_put(b, ", ");
      put_bound(c, s->args[i]);
    }
    pkb_put(b, ", ");
    closure(c, f, "[&]");
    if (red)
      put_reduce_target(c, f, tmp ? NULL : s->target, tmp);
    pkb_put(b, ");\n");
    close_results(c, &r);
    return;
  }
  if (s->range == PKI_RANGE_TEAM_THREAD && f->pattern == PKI_PATTERN_REDUCE &&
      f->reducer == PKI_REDUCER_SUM && pki_acc_only_summed(f)) {
    /* pkc::team_thread_reduce(m, b, e, ...): a host team of one sums in registers */
    pkb_begin(b, "pkc::team_thread_reduce(");
    put_member_bounds(c, s);
    pkb_put(b, ", ");
    closure(c, f, "[&]");
    put_reduce_target(c, f, tmp ? NULL : s->target, tmp);
    pkb_put(b, ");\n");
    close_results(c, &r);
    return;
  }
  static const char *const pat[] = {"parallel_for", "parallel_reduce", "parallel_scan"};
  if (f->pattern == PKI_PATTERN_SCAN &&
      (s->range == PKI_RANGE_TEAM_THREAD || s->range == PKI_RANGE_TEAM_VECTOR)) {
    /* pkc::team_thread_scan / team_vector_scan: Kokkos' team scans on GPUs
     * need a vector length of 1 (pkc_dialect.hpp) */
    pkb_begin(b, "pkc::%s(", s->range == PKI_RANGE_TEAM_THREAD ? "team_thread_scan"
                                                              : "team_vector_scan");
    put_member_bounds(c, s);
  } else {
    pkb_begin(b, "Kokkos::%s(", pat[f->pattern]);
    put_nested_range(c, s);
  }
  pkb_put(b, ", ");
  closure(c, f, "[&]");
  if (f->pattern == PKI_PATTERN_REDUCE)
    put_reduce_target(c, f, tmp ? NULL : s->target, tmp);
  pkb_put(b, ");\n");
  if (f->pattern == PKI_PATTERN_SCAN && s->target)
    pkb_line(b, "// (the total of a nested parallel_scan is not available: result stays 0)");
  close_results(c, &r);
}

void pkb_emit_single(pkb_ctx *c, const pki_stmt *s) {
  if (!s->closure || s->nargs < 1) {
    pkb_line(c->b, "// (malformed pk.single)");
    return;
  }
  pkb_begin(c->b, "Kokkos::single(Kokkos::%s(",
            s->range == PKI_RANGE_PER_THREAD ? "PerThread" : "PerTeam");
  pkb_emit_expr(c, s->args[0]);
  pkb_put(c->b, "), ");
  c->lanes++;
  closure(c, s->closure, "[&]");
  c->lanes--;
  pkb_put(c->b, ");\n");
}

/* ------------------------------------------------------------ assert */

void pkb_emit_assert(pkb_ctx *c, const pki_stmt *s) {
  pkb_buf *b = c->b;
  const pki_module *m = c->m;
  pkb_begin(b, "if (!(");
  pkb_emit_expr(c, s->cond);
  pkb_put(b, ")) {\n");
  b->indent++;
  pkb_begin(b, "PKC_PRINTF(\"%%s:%%d: assertion failed: %%s\\n\", ");
  pkb_put_cstr(b, m->abspath ? m->abspath : "?"); /* as #line: not as spelled */
  pkb_putf(b, ", %u, ", (unsigned)s->span.line);
  if (s->nargs > 0 && s->args[0] && s->args[0]->kind == PKI_E_STR)
    pkb_put_cstr(b, s->args[0]->str ? s->args[0]->str : "");
  else {
    pki_span sp = s->cond ? s->cond->span : s->span;
    char text[256] = "assert";
    if (m->source && sp.end_byte > sp.start_byte && sp.end_byte <= m->source_len) {
      size_t n = sp.end_byte - sp.start_byte;
      n = n < sizeof text - 1 ? n : sizeof text - 1;
      memcpy(text, m->source + sp.start_byte, n);
      text[n] = 0;
    }
    pkb_put_cstr(b, text);
  }
  pkb_put(b, ");\n");
  pkb_line(b, "Kokkos::abort(\"pkc assertion failed\");");
  b->indent--;
  pkb_line(b, "}");
}

/* ------------------------------------------------------------ @pk.main */

static void put_list(pkb_ctx *c, const pki_expr *e) {
  pkb_put(c->b, "{");
  int n = e && e->kind == PKI_E_LIST ? e->nargs : 0;
  for (int i = 0; i < n; i++) {
    if (i)
      pkb_put(c->b, ", ");
    put_bound(c, e->args[i]);
  }
  pkb_put(c->b, "}");
}

/* The rank of an MDRange dispatch: its bounds' length, else the kernel's. */
static int md_rank(const pki_stmt *s) {
  return s->nargs > 0 && s->args[0]->kind == PKI_E_LIST ? s->args[0]->nargs : s->closure->nindex;
}

/* The dispatch's policy: tagged for a workunit, plain for a lambda. */
static void put_dispatch_policy(pkb_ctx *c, const pki_stmt *s, const char *tag) {
  pkb_buf *b = c->b;
  if (s->range == PKI_POLICY_MDRANGE) {
    int r = md_rank(s);
    if (tag)
      pkb_putf(b, "pkc::MDRangePolicy<%d, %s>(", r, tag);
    else
      pkb_putf(b, "pkc::LambdaMDRange<%d>(", r);
    for (int i = 0; i < s->nargs && i < 3; i++) {
      pkb_put(b, i ? ", " : "");
      put_list(c, s->args[i]);
    }
    pkb_put(b, ")");
    return;
  }
  if (s->range == PKI_POLICY_TEAM) {
    if (tag)
      pkb_putf(b, "pkc::TeamPolicy<%s>(", tag);
    else
      pkb_put(b, "pkc::LambdaTeam(");
    pkb_emit_expr(c, s->args[0]);
    pkb_put(b, ", ");
    if (s->nargs > 1 && s->args[1])
      pkb_emit_expr(c, s->args[1]);
    else
      pkb_put(b, "Kokkos::AUTO");
    if (s->nargs > 2 && s->args[2]) {
      pkb_put(b, ", ");
      pkb_emit_expr(c, s->args[2]);
    }
    pkb_put(b, ")");
    for (int level = 0; level < 2; level++) { /* .set_scratch_size(level, PerTeam, PerThread) */
      if (!s->scratch[level][0] && !s->scratch[level][1])
        continue;
      pkb_putf(b, ".set_scratch_size(%d", level);
      for (int th = 0; th < 2; th++) {
        if (!s->scratch[level][th])
          continue;
        pkb_putf(b, ", Kokkos::%s(static_cast<size_t>(", th ? "PerThread" : "PerTeam");
        pkb_emit_expr(c, s->scratch[level][th]);
        pkb_put(b, "))");
      }
      pkb_put(b, ")");
    }
    return;
  }
  if (tag)
    pkb_putf(b, "pkc::RangePolicy<%s>(", tag);
  else
    pkb_put(b, "pkc::LambdaRange(");
  put_range_bounds(c, s);
  pkb_put(b, ")");
}

/* Members of the workload a lambda reads: collected without duplicates. */
typedef struct members_q {
  pki_arena *a;
  const pki_var **out;
  int n, cap;
} members_q;

static void member_expr(pki_visitor *v, const pki_expr *e) {
  members_q *q = v->data;
  if (e->kind != PKI_E_VAR || e->var->kind != PKI_VAR_MEMBER)
    return;
  for (int i = 0; i < q->n; i++)
    if (q->out[i] == e->var)
      return;
  q->out = pki_grow(q->a, q->out, q->n, &q->cap, sizeof *q->out);
  q->out[q->n++] = e->var;
}

/* The members b reads, once each, into *out (arena memory); their number. */
static int collect_members(pki_arena *a, const pki_block *b, const pki_var ***out) {
  members_q q = {.a = a};
  pki_visitor v = {.expr = member_expr, .closures = true, .data = &q};
  pki_visit_block(&v, b);
  *out = q.out;
  return q.n;
}

/* Before a RangePolicy or TeamPolicy dispatch of a workunit in @pk.main: the
 * extent rules the C wrapper checks for a launch from Python (pki_extent_rules),
 * checked on the dispatch's bounds (a team kernel's: 0 to the league size);
 * pkc::main_range_fits throws pkc::range_error (ValueError). */
static void put_main_range_checks(pkb_ctx *c, const pki_stmt *s, const pki_func *f) {
  pkb_buf *b = c->b;
  bool team = s->range == PKI_POLICY_TEAM && f->policy == PKI_POLICY_TEAM && s->nargs >= 1;
  if (!team && (s->range != PKI_POLICY_RANGE || f->policy != PKI_POLICY_RANGE))
    return;
  if (c->policy_text)
    return;
  for (int i = 0; i < f->extent_rules.n; i++) {
    const pki_extent_rule *r = PKI_AT(f->extent_rules, i, pki_extent_rule);
    if (r->view->kind != PKI_VAR_MEMBER ||
        (r->guard && ((r->guard->view && r->guard->view->kind != PKI_VAR_MEMBER) ||
                      (r->guard->var && r->guard->var->kind != PKI_VAR_MEMBER))))
      continue;
    pkb_begin(b, "%s", r->guard && (r->guard->view || r->guard->var) ? "if (" : "");
    if (pkb_put_extent_guard(b, r, "self"))
      pkb_put(b, ") ");
    pkb_put(b, "pkc::main_range_fits(");
    if (team) {
      pkb_put(b, "0, ");
      put_bound(c, s->args[0]);
    } else {
      put_range_bounds(c, s);
    }
    pkb_put(b, ", ");
    pkb_put_extent_rule(b, c->m->arena, f, r, "self", false);
    pkb_put(b, ");\n");
  }
}

/* Before a TeamPolicy dispatch of a workunit (tag) in @pk.main: the team shape
 * checked as for a launch from Python (pkc::main_team_fits throws pkc::range_error
 * where Kokkos would abort the process). */
static void put_main_team_check(pkb_ctx *c, const pki_stmt *s, const pki_func *f,
                                const char *tag) {
  pkb_buf *b = c->b;
  if (s->range != PKI_POLICY_TEAM || !tag || c->policy_text || s->nargs < 1)
    return;
  pkb_begin(b, "pkc::main_team_fits<%s>(", tag);
  put_bound(c, s->args[0]);
  pkb_put(b, ", ");
  if (s->nargs > 1 && s->args[1])
    put_bound(c, s->args[1]);
  else
    pkb_put(b, "0");
  pkb_put(b, ", ");
  if (s->nargs > 2 && s->args[2])
    put_bound(c, s->args[2]);
  else
    pkb_put(b, "0");
  pkb_putf(b, ", self, Kokkos::%s(), ",
           f->pattern == PKI_PATTERN_FOR ? "ParallelForTag" : "ParallelReduceTag");
  pkb_put_cstr(b, f->name);
  pkb_put(b, ");\n");
}

void pkb_emit_dispatch(pkb_ctx *c, const pki_stmt *s) {
  const pki_stmt *one[] = {s};
  pkb_emit_dispatch_results(c, s, NULL, one, 1);
}

void pkb_emit_dispatch_results(pkb_ctx *c, const pki_stmt *s, const char *fused_tag,
                               const pki_stmt *const *reds, int nreds) {
  pkb_buf *b = c->b;
  const pki_func *f = s->closure;
  if (!f) {
    pkb_line(b, "// (malformed dispatch)");
    return;
  }
  bool lambda = f->is_closure; /* a lambda in @pk.main, not a workunit of the workload */
  const char *label = s->str ? s->str : f->name;
  const char *tag = fused_tag;
  if (!tag && !lambda && f->owner)
    tag = pki_sprintf(c->m->arena, "%s::%s", pkb_ident(c->m->arena, f->owner->name),
                      pkb_tag_name(c->m->arena, f));
  if (lambda) { /* the lambda copies what it needs: never `self` by reference */
    const pki_var **mem;
    int n = collect_members(c->m->arena, &f->body, &mem);
    pkb_line(b, "{");
    b->indent++;
    for (int i = 0; i < n; i++) {
      bool rn = pkb_hides_member(f, mem[i]->name); /* renamed apart from a local */
      pkb_begin(b, rn ? "const auto __self_" : "const auto ");
      pkb_put_ident(b, mem[i]->name);
      pkb_put(b, rn ? "_ = self." : " = self.");
      pkb_put_ident(b, mem[i]->name);
      pkb_put(b, ";\n");
    }
  }
  if (!lambda && !fused_tag) {
    put_main_range_checks(c, s, f);
    put_main_team_check(c, s, f, tag);
  }
  const char **tmps = pki_alloc(c->m->arena, sizeof *tmps * (size_t)(nreds + 1));
  results r = {reds, nreds, tmps, false};
  open_results(c, &r);
  static const char *const pat[] = {"parallel_for", "parallel_reduce", "parallel_scan"};
  if (s->range == PKI_POLICY_MDRANGE && !c->policy_text && f->pattern != PKI_PATTERN_SCAN) {
    pkb_begin(b, "%s", "");
    pkb_put_md_launch(b, f, md_rank(s), f->pattern == PKI_PATTERN_REDUCE ? "reduce" : "for");
  } else
    pkb_begin(b, "Kokkos::%s(", pat[f->pattern]);
  pkb_put_cstr(b, label);
  pkb_put(b, ", ");
  if (c->policy_text)
    pkb_put(b, c->policy_text);
  else
    put_dispatch_policy(c, s, tag);
  pkb_put(b, ", ");
  if (lambda)
    closure(c, f, "KOKKOS_LAMBDA");
  else
    pkb_put(b, "self");
  for (int k = 0; k < nreds; k++)
    if (r.tmp[k] || (has_result(reds[k]) && reds[k]->target))
      put_reduce_target(c, reds[k]->closure, r.tmp[k] ? NULL : reds[k]->target, r.tmp[k]);
  pkb_put(b, ");\n");
  close_results(c, &r);
  if (lambda) {
    b->indent--;
    pkb_line(b, "}");
  }
}

/* ------------------------------------------------------------ intrinsics */

static void args_from(pkb_ctx *c, const pki_expr *e, int first) {
  for (int i = first; i < e->nargs; i++) {
    if (i > first)
      pkb_put(c->b, ", ");
    pkb_emit_expr(c, e->args[i]);
  }
}

/* obj.method(args[1..]) */
static void method(pkb_ctx *c, const pki_expr *e, const char *name) {
  pkb_emit_expr(c, e->args[0]);
  pkb_putf(c->b, ".%s(", name);
  args_from(c, e, 1);
  pkb_put(c->b, ")");
}

/* &v(i, j): the element an atomic works on; returns the index after it. */
static int atomic_target(pkb_ctx *c, const pki_expr *e) {
  const pki_expr *v = e->args[0];
  int rank = v->type.kind == PKI_VIEW ? v->type.rank : 1;
  bool checked = c->o->bounds_check && v->type.kind == PKI_VIEW;
  pkb_put(c->b, checked ? "&PKC_AT(" : "&");
  pkb_emit_expr(c, v);
  pkb_put(c->b, checked ? ", " : "(");
  for (int i = 1; i <= rank && i < e->nargs; i++) {
    if (i > 1)
      pkb_put(c->b, ", ");
    pkb_emit_index(c, e->args[i]);
  }
  pkb_put(c->b, ")");
  return 1 + rank;
}

static void atomic(pkb_ctx *c, const pki_expr *e, const char *ns, const char *name) {
  pkb_putf(c->b, "%s::%s(", ns, name);
  int k = atomic_target(c, e);
  for (int i = k; i < e->nargs; i++) {
    pkb_put(c->b, ", ");
    pkb_emit_expr(c, e->args[i]);
  }
  pkb_put(c->b, ")");
}

static const char *atomic_name(pki_intrinsic id) {
  switch (id) {
  case PKI_INTRINSIC_ATOMIC_FETCH_ADD: return "atomic_fetch_add";
  case PKI_INTRINSIC_ATOMIC_FETCH_SUB: return "atomic_fetch_sub";
  case PKI_INTRINSIC_ATOMIC_FETCH_MUL: return "atomic_fetch_mul";
  case PKI_INTRINSIC_ATOMIC_FETCH_DIV: return "atomic_fetch_div";
  case PKI_INTRINSIC_ATOMIC_FETCH_MAX: return "atomic_fetch_max";
  case PKI_INTRINSIC_ATOMIC_FETCH_MIN: return "atomic_fetch_min";
  case PKI_INTRINSIC_ATOMIC_FETCH_MOD: return "atomic_fetch_mod";
  case PKI_INTRINSIC_ATOMIC_FETCH_AND: return "atomic_fetch_and";
  case PKI_INTRINSIC_ATOMIC_FETCH_OR: return "atomic_fetch_or";
  case PKI_INTRINSIC_ATOMIC_FETCH_XOR: return "atomic_fetch_xor";
  case PKI_INTRINSIC_ATOMIC_FETCH_LSHIFT: return "atomic_fetch_lshift";
  case PKI_INTRINSIC_ATOMIC_FETCH_RSHIFT: return "atomic_fetch_rshift";
  case PKI_INTRINSIC_ATOMIC_ADD: return "atomic_add";
  case PKI_INTRINSIC_ATOMIC_SUB: return "atomic_sub";
  case PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE: return "atomic_compare_exchange";
  default: return NULL;
  }
}

static void team_query(pkb_ctx *c, const pki_expr *e, const char *name) {
  bool cast = e->type.kind == PKI_I64;
  if (cast)
    pkb_put(c->b, "static_cast<int64_t>(");
  method(c, e, name);
  if (cast)
    pkb_put(c->b, ")");
}

static const char *rand_name(pki_intrinsic id) {
  switch (id) {
  case PKI_INTRINSIC_RAND_DRAND: return "drand";
  case PKI_INTRINSIC_RAND_FRAND: return "frand";
  case PKI_INTRINSIC_RAND_URAND: return "urand";
  case PKI_INTRINSIC_RAND_URAND64: return "urand64";
  case PKI_INTRINSIC_RAND_RAND: return "rand";
  case PKI_INTRINSIC_RAND_RAND64: return "rand64";
  case PKI_INTRINSIC_RAND_NORMAL: return "normal";
  default: return NULL;
  }
}

void pkb_emit_intrinsic(pkb_ctx *c, const pki_expr *e) {
  pkb_buf *b = c->b;
  pki_intrinsic id = e->intrinsic;
  const char *name;
  if ((name = atomic_name(id)) && e->nargs >= 2) {
    atomic(c, e, "pkc", name);
    return;
  }
  if ((name = rand_name(id)) && e->nargs >= 1) {
    method(c, e, name);
    return;
  }
  switch (id) {
  case PKI_INTRINSIC_LEAGUE_RANK: team_query(c, e, "league_rank"); return;
  case PKI_INTRINSIC_TEAM_RANK: team_query(c, e, "team_rank"); return;
  case PKI_INTRINSIC_LEAGUE_SIZE: team_query(c, e, "league_size"); return;
  case PKI_INTRINSIC_TEAM_SIZE: team_query(c, e, "team_size"); return;
  case PKI_INTRINSIC_TEAM_BARRIER: method(c, e, "team_barrier"); return;
  case PKI_INTRINSIC_TEAM_BROADCAST: method(c, e, "team_broadcast"); return;
  case PKI_INTRINSIC_TEAM_SCRATCH: method(c, e, "team_scratch"); return;
  case PKI_INTRINSIC_THREAD_SCRATCH: method(c, e, "thread_scratch"); return;
  case PKI_INTRINSIC_SCRATCH_VIEW: {
    pki_type t = e->type;
    t.space = PKI_SPACE_SCRATCH;
    pkb_put_type(b, t);
    pkb_put(b, "(");
    args_from(c, e, 0);
    pkb_put(b, ")");
    return;
  }
  case PKI_INTRINSIC_ATOMIC_INCREMENT:
  case PKI_INTRINSIC_ATOMIC_DECREMENT:
    atomic(c, e, "pkc", /* Kokkos 4 deprecates Kokkos::atomic_increment */
           id == PKI_INTRINSIC_ATOMIC_INCREMENT ? "atomic_increment" : "atomic_decrement");
    return;
  case PKI_INTRINSIC_POOL_GET_STATE: method(c, e, "get_state"); return;
  case PKI_INTRINSIC_POOL_FREE_STATE: method(c, e, "free_state"); return;
  case PKI_INTRINSIC_SUBVIEW: pkb_emit_subview(c, e->args, e->nargs); return;
  case PKI_INTRINSIC_TEAM_INCLUSIVE_SCAN:
    pkb_put(b, "pkc::team_inclusive_scan(");
    args_from(c, e, 0);
    pkb_put(b, ")");
    return;
  case PKI_INTRINSIC_LOWER_BOUND:
  case PKI_INTRINSIC_UPPER_BOUND:
    pkb_put(b, id == PKI_INTRINSIC_LOWER_BOUND ? "pkc::lower_bound(" : "pkc::upper_bound(");
    args_from(c, e, 0);
    pkb_put(b, ")");
    return;
  case PKI_INTRINSIC_TIMER_NEW: pkb_put(b, "Kokkos::Timer()"); return;
  case PKI_INTRINSIC_TIMER_SECONDS: method(c, e, "seconds"); return;
  case PKI_INTRINSIC_TIMER_RESET: method(c, e, "reset"); return;
  case PKI_INTRINSIC_FENCE: pkb_put(b, "Kokkos::fence()"); return;
  case PKI_INTRINSIC_BINOP_NEW: /* pkc::bin_op_3d(keys, nbins x3, min x3, max x3) */
    pkb_putf(b, "pkc::bin_op_%dd(", e->type.length);
    args_from(c, e, 0);
    pkb_put(b, ")");
    return;
  case PKI_INTRINSIC_BINSORT_NEW: /* pkc::bin_sort(keys, begin, end, op, within) */
    pkb_put(b, "pkc::bin_sort(");
    args_from(c, e, 0);
    pkb_put(b, ")");
    return;
  case PKI_INTRINSIC_BINSORT_CREATE: method(c, e, "create_permute_vector"); return;
  case PKI_INTRINSIC_BINSORT_SORT: method(c, e, "sort"); return;
  case PKI_INTRINSIC_BINSORT_COUNT: method(c, e, "get_bin_count"); return;
  case PKI_INTRINSIC_BINSORT_OFFSETS: method(c, e, "get_bin_offsets"); return;
  case PKI_INTRINSIC_BINSORT_PERMUTE: method(c, e, "get_permute_vector"); return;
  case PKI_INTRINSIC_SCRATCH_SHMEM: {
    static const char *const stars[] = {"*", "**", "***"};
    pkb_putf(b, "static_cast<int64_t>(pkc::ScratchView<%s%s>::shmem_size(",
             pkb_scalar_ctype(e->type.elem), stars[(e->ival - 1) % 3]);
    for (int i = 0; i < e->nargs; i++) {
      pkb_put(b, i ? ", " : "");
      pkb_emit_expr(c, e->args[i]);
    }
    pkb_put(b, "))");
    return;
  }
  default: pkb_putf(b, "/* unsupported intrinsic %s */ 0", pki_intrinsics[id].py_name);
  }
}
