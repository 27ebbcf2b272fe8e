/*
 * emit_fusion.c - the fused kernels of a workload (the plan of
 * ir/fuse_plan.c): a tag and an operator() per group that calls the
 * group's workunits at the same point, in order (a repeated chain loops over
 * them), and in @pk.main the choice between the fused dispatch and the
 * original statements (PKC_FUSION=0, bounds that differ at run time and
 * overlapping View members take the original ones).
 */
#include <string.h>

#include "access.h"
#include "pkb_priv.h"

static const char *fused_tag(pkb_ctx *c, const pki_fused *g) {
  return pki_sprintf(c->m->arena, "pkc_fused%d_tag", g->id);
}

static bool in_entity(const pki_fused *g, const pki_entity *e) { return g->main->owner == e; }

/* The reductions of a group, in order (*n of them): one result each, the
 * fused kernel's accumulators (Kokkos' combined reducers when several). */
static const pki_stmt **group_reductions(pkb_ctx *c, const pki_fused *g, int *n) {
  const pki_stmt **reds = pki_alloc(c->m->arena, sizeof *reds * (size_t)g->n);
  *n = 0;
  for (int k = 0; k < g->n; k++)
    if (g->stmts[k]->pattern == PKI_PATTERN_REDUCE)
      reds[(*n)++] = g->stmts[k];
  return reds;
}

/* The name of accumulator r of n: `one` when it is the only one, else
 * pkc_acc0, pkc_acc1, ... (prefix "pkc_acc" or "pkc_red"). */
static const char *acc_name(pkb_ctx *c, const char *one, const char *prefix, int r, int n) {
  return n == 1 ? one : pki_sprintf(c->m->arena, "%s%d", prefix, r);
}

/* A repeated chain over a 1-D range runs per tile of pkc::fusion_tile
 * points (all repetitions of a tile while it is in cache; one point per
 * tile on GPUs). A chain that runs once is launched over its points, as
 * its dispatches are: tiles of 2048 points left one thread idle in md_lj
 * (2048 atoms, a costly point), and give no reuse when nothing repeats. */
static bool tiled(const pki_fused *g) {
  return g->loop && g->stmts[0]->range == PKI_POLICY_RANGE;
}

void pkb_fused_tags(pkb_ctx *c, const pki_entity *e) {
  const pki_fusion_plan *p = c->m->fusion;
  for (int i = 0; p && i < p->groups.n; i++) {
    const pki_fused *g = PKI_AT(p->groups, i, pki_fused);
    if (in_entity(g, e))
      pkb_line(c->b, "struct %s {};  // %s", fused_tag(c, g),
               pkb_comment_text(c->m->arena, g->why));
  }
}

void pkb_fused_members(pkb_ctx *c, const pki_entity *e) {
  const pki_fusion_plan *p = c->m->fusion;
  for (int i = 0; p && i < p->groups.n; i++) {
    const pki_fused *g = PKI_AT(p->groups, i, pki_fused);
    if (!in_entity(g, e))
      continue;
    if (g->loop)
      pkb_line(c->b, "int64_t pkc_fused%d_reps = 0;  // trip count of the loop of line %u", g->id,
               (unsigned)g->loop->span.line);
    if (tiled(g))
      pkb_line(c->b, "int64_t pkc_fused%d_begin = 0, pkc_fused%d_end = 0;  // its range", g->id,
               g->id);
  }
}

static void workload_point_operator(pkb_ctx *c, const pki_fused *g);

static void fused_operator(pkb_ctx *c, const pki_fused *g) {
  pkb_buf *b = c->b;
  if (g->nresident) {
    workload_point_operator(c, g);
    return;
  }
  int nred;
  const pki_stmt **reds = group_reductions(c, g, &nred);
  int rank = g->stmts[0]->closure->nindex;
  pkb_nl(b);
  pkb_line(b, "// %s", pkb_comment_text(c->m->arena, g->why));
  pkb_begin(b, "KOKKOS_INLINE_FUNCTION void operator()(const %s &", fused_tag(c, g));
  for (int d = 0; d < rank; d++)
    pkb_putf(b, ", const int64_t i%d", d);
  for (int r = 0; r < nred; r++) {
    pkb_put(b, ", ");
    pkb_put_acc_type(b, reds[r]->closure);
    pkb_putf(b, " &%s", acc_name(c, "acc", "pkc_acc", r, nred));
  }
  pkb_put(b, ") const {\n");
  b->indent++;
  if (tiled(g)) { /* work item i0 is a tile */
    pkb_line(b, "const int64_t begin = pkc_fused%d_begin + i0 * pkc::fusion_tile;", g->id);
    pkb_line(b, "const int64_t end = begin + pkc::fusion_tile < pkc_fused%d_end ? "
             "begin + pkc::fusion_tile : pkc_fused%d_end;", g->id, g->id);
    pkb_line(b, "for (int64_t rep = 0; rep < pkc_fused%d_reps; ++rep) {", g->id);
    b->indent++;
    for (int k = 0; k < g->n; k++) {
      pkb_line(b, "for (int64_t i = begin; i < end; ++i) {");
      pkb_line(b, "  (*this)(%s{}, i);", pkb_tag_name(c->m->arena, g->stmts[k]->closure));
      pkb_line(b, "}");
    }
    b->indent--;
    pkb_line(b, "}");
    b->indent--;
    pkb_line(b, "}");
    return;
  }
  if (g->loop) {
    pkb_line(b, "for (int64_t rep = 0; rep < pkc_fused%d_reps; ++rep) {", g->id);
    b->indent++;
  }
  for (int k = 0, r = 0; k < g->n; k++) {
    const pki_func *f = g->stmts[k]->closure;
    pkb_begin(b, "(*this)(%s{}", pkb_tag_name(c->m->arena, f));
    for (int d = 0; d < rank; d++)
      pkb_putf(b, ", i%d", d);
    if (f->acc)
      pkb_putf(b, ", %s", acc_name(c, "acc", "pkc_acc", r++, nred));
    pkb_put(b, ");\n");
  }
  if (g->loop) {
    b->indent--;
    pkb_line(b, "}");
  }
  b->indent--;
  pkb_line(b, "}");
}

void pkb_fused_operators(pkb_ctx *c, const pki_entity *e) {
  const pki_fusion_plan *p = c->m->fusion;
  for (int i = 0; p && i < p->groups.n; i++) {
    const pki_fused *g = PKI_AT(p->groups, i, pki_fused);
    if (in_entity(g, e))
      fused_operator(c, g);
  }
}

/* `&& (a == b)` for each bound of s that is another expression than first's. */
static void bound_checks(pkb_ctx *c, const pki_stmt *s, const pki_stmt *first) {
  int nb = s->range == PKI_POLICY_MDRANGE && s->nargs > 2 ? 2 : s->nargs; /* not tiles */
  for (int i = 0; i < nb && i < first->nargs; i++) {
    const pki_expr *a = s->args[i], *b0 = first->args[i];
    int n = a && a->kind == PKI_E_LIST ? a->nargs : 1;
    for (int k = 0; k < n; k++) {
      const pki_expr *x = a && a->kind == PKI_E_LIST ? a->args[k] : a;
      const pki_expr *y = b0 && b0->kind == PKI_E_LIST && k < b0->nargs ? b0->args[k] : b0;
      if (!x || !y || pki_same_expr(x, y))
        continue;
      pkb_put(c->b, " &&\n");
      pkb_begin(c->b, "    (");
      pkb_emit_expr(c, x);
      pkb_put(c->b, ") == (");
      pkb_emit_expr(c, y);
      pkb_put(c->b, ")");
    }
  }
}

/* In @pk.main: true when s was emitted here (a group's first statement, or
 * a later one of a group, emitted with the first). */
bool pkb_emit_fused(pkb_ctx *c, const pki_stmt *s) {
  if (c->unfused || !c->m->fusion)
    return false;
  bool inside;
  const pki_fused *g = pki_fused_at(c->m, s, &inside);
  if (inside)
    return true;
  if (!g)
    return false;
  pkb_buf *b = c->b;
  pkb_line_directive(c, g->loop ? g->loop : s);
  pkb_line(b, "// %s", pkb_comment_text(c->m->arena, g->why));
  pkb_begin(b, "if (pkc::fusion_enabled()");
  int reductions = 0;
  for (int k = 0; k < g->n; k++)
    reductions += g->stmts[k]->pattern == PKI_PATTERN_REDUCE;
  if (reductions > 1)
    pkb_put(b, " && pkc::fuse_several_reductions()");
  if (g->scatter)
    pkb_put(b, " && pkc::fuse_scatter()");
  for (int k = 1; k < g->n && g->bounds_at_run_time; k++)
    bound_checks(c, g->stmts[k], g->stmts[0]);
  for (int k = 0; k + 1 < g->nviews; k += 2) {
    pkb_put(b, " &&\n");
    pkb_begin(b, "    !pkc::overlap(self.");
    pkb_put_ident(b, g->views[k]->name);
    pkb_put(b, ", self.");
    pkb_put_ident(b, g->views[k + 1]->name);
    pkb_put(b, ")");
  }
  pkb_put(b, ") {\n");
  b->indent++;
  if (g->loop) {
    pkb_begin(b, "self.pkc_fused%d_reps = pkc::trip_count(", g->id);
    if (g->loop->begin)
      pkb_emit_expr(c, g->loop->begin);
    else
      pkb_put(b, "0");
    pkb_put(b, ", ");
    pkb_emit_expr(c, g->loop->end);
    pkb_put(b, ");\n");
  }
  int nred;
  const pki_stmt **reds = group_reductions(c, g, &nred);
  pki_stmt d = *g->stmts[0]; /* the first's policy; the reductions' pattern and targets */
  if (tiled(g)) { /* the range is split into tiles: work items are tiles */
    const pki_expr *b0 = g->stmts[0]->nargs >= 2 ? g->stmts[0]->args[0] : NULL;
    const pki_expr *e0 = g->stmts[0]->nargs >= 2 ? g->stmts[0]->args[1]
                         : g->stmts[0]->nargs ? g->stmts[0]->args[0] : NULL;
    pkb_begin(b, "self.pkc_fused%d_begin = ", g->id);
    if (b0)
      pkb_emit_expr(c, b0);
    else
      pkb_put(b, "0");
    pkb_put(b, ";\n");
    pkb_begin(b, "self.pkc_fused%d_end = ", g->id);
    if (e0)
      pkb_emit_expr(c, e0);
    else
      pkb_put(b, "0");
    pkb_put(b, ";\n");
    c->policy_text = pki_sprintf(
        c->m->arena, "pkc::RangePolicy<%s::%s>(0, pkc::tile_count(self.pkc_fused%d_begin, "
        "self.pkc_fused%d_end))", pkb_ident(c->m->arena, g->main->owner->name), fused_tag(c, g),
        g->id, g->id);
  }
  d.pattern = nred ? PKI_PATTERN_REDUCE : PKI_PATTERN_FOR;
  d.closure = nred ? reds[0]->closure : g->stmts[0]->closure;
  d.target = NULL;
  const char *label = "";
  for (int k = 0; k < g->n; k++)
    label = pki_sprintf(c->m->arena, "%s%s%s", label, k ? "+" : "fused:",
                        g->stmts[k]->str ? g->stmts[k]->str : g->stmts[k]->closure->name);
  d.str = g->loop ? pki_sprintf(c->m->arena, "%s*reps", label) : label;
  pkb_emit_dispatch_results(c, &d, pki_sprintf(c->m->arena, "%s::%s",
                                              pkb_ident(c->m->arena, g->main->owner->name),
                                              fused_tag(c, g)),
                            reds, nred);
  c->policy_text = NULL;
  b->indent--;
  pkb_line(b, "} else {");
  b->indent++;
  c->unfused = true;
  if (g->loop)
    pkb_emit_stmt(c, g->loop);
  else
    for (int k = 0; k < g->n; k++)
      pkb_emit_stmt(c, g->stmts[k]);
  c->unfused = false;
  b->indent--;
  pkb_line(b, "}");
  return true;
}

/* ------------------------------------------- fused chains of host code */

static const pki_host_launch *link_of(const pki_host_fused *g, int k) {
  return &g->chain->launches[g->first + k];
}

/* The link whose pattern, reducer and result the fused kernel has: the
 * first reduction (the later ones, if any, return theirs in parameters
 * pkc_result1, ...), else the first link. */
static const pki_func *pattern_kernel(const pki_host_fused *g) {
  for (int k = 0; k < g->n; k++)
    if (link_of(g, k)->kernel->pattern == PKI_PATTERN_REDUCE)
      return link_of(g, k)->kernel;
  return link_of(g, 0)->kernel;
}

/* The reduction links' kernels, in order (g->nresults of them). */
static const pki_func **host_reductions(pkb_ctx *c, const pki_host_fused *g) {
  const pki_func **reds = pki_alloc(c->m->arena, sizeof *reds * (size_t)(g->nresults + 1));
  for (int k = 0, r = 0; k < g->n; k++)
    if (link_of(g, k)->kernel->pattern == PKI_PATTERN_REDUCE)
      reds[r++] = link_of(g, k)->kernel;
  return reds;
}

/* Variants whose later reductions run ahead of their statements are left
 * out of --bounds-check builds: an index error of theirs would be raised
 * at the first reduction's statement. */
static bool host_built(const pkb_ctx *c, const pki_host_fused *g) {
  return g->nresults < 2 || !c->o->bounds_check;
}

static bool host_point(const pki_host_fused *g);

static bool host_tiled(const pki_host_fused *g) {
  return (g->repeat || host_point(g)) && link_of(g, 0)->kernel->policy == PKI_POLICY_RANGE;
}

static const char *member_name(pkb_ctx *c, const pki_host_fused *g, int k) {
  return pki_sprintf(c->m->arena, "%s_%d", pkb_ident(c->m->arena, link_of(g, k)->kernel->name),
                     k);
}

static const char *host_label(pkb_ctx *c, const pki_host_fused *g) {
  const char *s = "fused:";
  for (int k = 0; k < g->n; k++)
    s = pki_sprintf(c->m->arena, "%s%s%s", s, k ? "+" : "", link_of(g, k)->kernel->name);
  return g->repeat ? pki_sprintf(c->m->arena, "%s*reps", s) : s;
}

static void host_operator(pkb_ctx *c, const pki_host_fused *g) {
  pkb_buf *b = c->b;
  const pki_func **reds = host_reductions(c, g);
  int rank = link_of(g, 0)->kernel->nindex;
  pkb_begin(b, "KOKKOS_INLINE_FUNCTION void operator()(const pkc_fused%d_tag &", g->id);
  if (host_tiled(g))
    pkb_put(b, ", const int64_t tile");
  for (int d = 0; d < rank && !host_tiled(g); d++)
    pkb_putf(b, ", const int64_t i%d", d);
  for (int r = 0; r < g->nresults; r++) {
    pkb_put(b, ", ");
    pkb_put_acc_type(b, reds[r]);
    pkb_putf(b, " &%s", acc_name(c, "acc", "pkc_acc", r, g->nresults));
  }
  pkb_put(b, ") const {\n");
  b->indent++;
  if (host_tiled(g)) { /* all repetitions of a tile while it is in cache */
    pkb_line(b, "const int64_t first = begin + tile * pkc::fusion_tile;");
    pkb_line(b, "const int64_t last = first + pkc::fusion_tile < end ? first + pkc::fusion_tile "
                ": end;");
  }
  if (g->repeat) {
    pkb_line(b, "for (int64_t rep = 0; rep < reps; ++rep) {");
    b->indent++;
  }
  for (int k = 0, r = 0; k < g->n; k++) {
    const pki_func *f = link_of(g, k)->kernel;
    const char *call = pki_sprintf(c->m->arena, "%s(%s::%s{}", member_name(c, g, k),
                                   pkb_ident(c->m->arena, f->name),
                                   pkb_tag_name(c->m->arena, f));
    if (host_tiled(g)) {
      pkb_line(b, "for (int64_t i0 = first; i0 < last; ++i0) %s, i0);", call);
      continue;
    }
    pkb_begin(b, "%s", call);
    for (int d = 0; d < rank; d++)
      pkb_putf(b, ", i%d", d);
    if (f->acc)
      pkb_putf(b, ", %s", acc_name(c, "acc", "pkc_acc", r++, g->nresults));
    pkb_put(b, ");\n");
  }
  if (g->repeat) {
    b->indent--;
    pkb_line(b, "}");
  }
  b->indent--;
  pkb_line(b, "}");
}

static void host_point_operator(pkb_ctx *c, const pki_host_fused *g);

void pkb_host_fused_functors(pkb_ctx *c) {
  const pki_fusion_plan *p = c->m->fusion;
  for (int i = 0; p && i < p->host.n; i++) {
    const pki_host_fused *g = PKI_AT(p->host, i, pki_host_fused);
    pkb_buf *b = c->b;
    if (!host_built(c, g))
      continue;
    pkb_line(b, "// %s", pkb_comment_text(c->m->arena, g->why));
    pkb_line(b, "struct pkc_fused%d {", g->id);
    b->indent++;
    pkb_line(b, "struct pkc_fused%d_tag {};", g->id);
    pkb_nl(b);
    for (int k = 0; k < g->n; k++)
      pkb_line(b, "%s %s;  // line %u", pkb_ident(c->m->arena, link_of(g, k)->kernel->name),
               member_name(c, g, k), (unsigned)link_of(g, k)->span.line);
    if (g->repeat)
      pkb_line(b, "int64_t reps = 0;  // trip count of the loop of line %u",
               (unsigned)g->chain->loop_span.line);
    if (host_tiled(g))
      pkb_line(b, "int64_t begin = 0, end = 0;  // the range, in tiles of pkc::fusion_tile "
                  "points");
    pkb_nl(b);
    if (host_point(g))
      host_point_operator(c, g);
    else
      host_operator(c, g);
    b->indent--;
    pkb_line(b, "};");
    pkb_nl(b);
  }
}

static const char *host_wrapper_name(pkb_ctx *c, const pki_host_fused *g) {
  return pki_sprintf(c->m->arena, "pkc_%s__pkc_fused%d", c->m->name, g->id);
}

/* Binds every parameter of every link: the first link of a fused
 * parameter from args, the others from that link's member (one View). */
static void host_bind(pkb_ctx *c, const pki_host_fused *g) {
  pkb_buf *b = c->b;
  int *first_k = pki_alloc(c->m->arena, sizeof *first_k * (size_t)(g->nparams + 1));
  int *first_p = pki_alloc(c->m->arena, sizeof *first_p * (size_t)(g->nparams + 1));
  for (int j = 0; j < g->nparams; j++)
    first_k[j] = -1;
  if (g->nparams || g->repeat)
    pkb_line(b, "if (!args) return pkc::fail(err, errlen, kernel, \"missing arguments (args is "
                "NULL)\");");
  for (int k = 0; k < g->n; k++) {
    const pki_func *f = link_of(g, k)->kernel;
    for (int p = 0; p < f->nparams; p++) {
      const pki_var *v = f->params[p];
      int j = g->bind[k][p];
      pkb_begin(b, "%s", "");
      if (first_k[j] >= 0) { /* pkc::rebind: see pkc_kokkos.hpp */
        pkb_putf(b, "pkc::rebind(f.%s.", member_name(c, g, k));
        pkb_put_ident(b, v->name);
        pkb_putf(b, ", f.%s.", member_name(c, g, first_k[j]));
        pkb_put_ident(b, link_of(g, first_k[j])->kernel->params[first_p[j]]->name);
        pkb_put(b, ");\n");
        continue;
      }
      first_k[j] = k;
      first_p[j] = p;
      pkb_putf(b, "if (!pkc::%s(f.%s.", v->type.kind == PKI_VIEW   ? "bind_view"
                                        : v->type.kind == PKI_POOL ? "bind_pool"
                                                                   : "bind_scalar",
               member_name(c, g, k));
      pkb_put_ident(b, v->name);
      pkb_putf(b, ", args[%d], kernel, ", j);
      pkb_put_cstr(b, g->names[j]);
      pkb_put(b, ", err, errlen)) return 1;\n");
    }
  }
  if (g->repeat)
    pkb_line(b, "if (!pkc::bind_scalar(f.reps, args[%d], kernel, \"pkc_reps\", err, errlen)) "
                "return 1;", g->nparams);
}

/* The launch of a variant with several reductions: Kokkos' combined
 * reducers, one value each; the first goes to result, the others to the
 * parameters pkc_result1, ... after the links' (the shim reads them). */
static void host_results(pkb_ctx *c, const pki_host_fused *g, const char *fty,
                         const char *tag) {
  pki_arena *a = c->m->arena;
  const pki_func **reds = host_reductions(c, g);
  const char *text = "";
  for (int r = 0; r < g->nresults; r++) {
    const char *ty = pkb_acc_ctype(reds[r]);
    pkb_line(c->b, "%s value%d = 0;", ty, r);
    const char *v = pki_sprintf(a, "value%d", r);
    if (reds[r]->reducer != PKI_REDUCER_SUM)
      v = pki_sprintf(a, "%s<%s>(%s)", pkb_kokkos_reducer(reds[r]->reducer), ty, v);
    text = pki_sprintf(a, "%s%s%s", text, r ? ", " : "", v);
  }
  c->results_text = text;
  pkb_abi_launch(c, pattern_kernel(g), fty, tag);
  c->results_text = NULL;
  for (int r = 0; r < g->nresults; r++) {
    const char *v = pkb_acc_result(a, reds[r], pki_sprintf(a, "value%d", r));
    if (!r)
      pkb_line(c->b, "pkc::store_result(result, %s);", v);
    else
      pkb_line(c->b, "pkc::store_result(static_cast<pkc_value *>(args[%d]), %s);",
               g->nparams + r - 1, v);
  }
}

static void host_wrapper(pkb_ctx *c, const pki_host_fused *g) {
  pkb_buf *b = c->b;
  pki_arena *a = c->m->arena;
  const pki_func *pf = pattern_kernel(g);
  const char *fty = pki_sprintf(a, "pkc_%s::pkc_fused%d", c->m->name, g->id);
  const char *tag = pki_sprintf(a, "pkc_fused%d_tag", g->id);
  pkb_line(b, "extern \"C\" PKC_EXPORT int %s(void *const *args, const pkc_policy *policy,",
           host_wrapper_name(c, g));
  pkb_line(b, "    pkc_value *%s, char *err, size_t errlen) {",
           pf->pattern == PKI_PATTERN_FOR ? " /*result*/" : "result");
  b->indent++;
  pkb_begin(b, "static const char kernel[] = ");
  pkb_put_cstr(b, host_label(c, g));
  pkb_put(b, ";\n");
  pkb_line(b, "try {");
  b->indent++;
  pkb_line(b, "if (!pkc::ready(kernel, err, errlen)) return 1;");
  pkb_abi_check_policy(c, link_of(g, 0)->kernel);
  pkb_line(b, "%s f{};", fty);
  host_bind(c, g);
  for (int k = 0; k < g->n; k++)
    pkb_abi_check_extents(c, link_of(g, k)->kernel,
                          pki_sprintf(a, "f.%s", member_name(c, g, k)));
  if (host_tiled(g)) {
    pkb_line(b, "f.begin = begin;");
    pkb_line(b, "f.end = end;");
    c->policy_text = pki_sprintf(a, "pkc::RangePolicy<%s::%s>(0, pkc::tile_count(begin, end))",
                                 fty, tag);
  }
  if (g->nresults > 1)
    host_results(c, g, fty, tag);
  else
    pkb_abi_launch(c, pf, fty, tag);
  c->policy_text = NULL;
  pkb_line(b, "return 0;");
  b->indent--;
  pkb_line(b, "} catch (const std::exception &e) {");
  pkb_line(b, "  return pkc::fail(err, errlen, kernel, e.what());");
  pkb_line(b, "} catch (...) {");
  pkb_line(b, "  return pkc::fail(err, errlen, kernel, \"unknown C++ exception\");");
  pkb_line(b, "}");
  b->indent--;
  pkb_line(b, "}");
  pkb_nl(b);
}

void pkb_host_fused_wrappers(pkb_ctx *c) {
  const pki_fusion_plan *p = c->m->fusion;
  for (int i = 0; p && i < p->host.n; i++)
    if (host_built(c, PKI_AT(p->host, i, pki_host_fused)))
      host_wrapper(c, PKI_AT(p->host, i, pki_host_fused));
}

/* The access of fused parameter j: the union over the links bound to it. */
static unsigned host_access(const pki_host_fused *g, int j) {
  unsigned acc = 0;
  for (int k = 0; k < g->n; k++)
    for (int p = 0; p < link_of(g, k)->kernel->nparams; p++)
      if (g->bind[k][p] == j)
        acc |= link_of(g, k)->kernel->params[p]->access;
  return acc;
}

void pkb_host_fused_param_tables(pkb_ctx *c) {
  const pki_fusion_plan *p = c->m->fusion;
  for (int i = 0; p && i < p->host.n; i++) {
    const pki_host_fused *g = PKI_AT(p->host, i, pki_host_fused);
    if (!host_built(c, g))
      continue;
    pkb_line(c->b, "const pkc_param_desc params_fused%d[] = {  // %s", g->id, host_label(c, g));
    for (int j = 0; j < g->nparams; j++)
      pkb_abi_param_desc(c, g->params[j], g->names[j], host_access(g, j), false);
    if (g->repeat) {
      pki_var reps = {.name = "pkc_reps", .type = {.kind = PKI_I64}};
      pkb_abi_param_desc(c, &reps, "pkc_reps", PKI_ACCESS_READ, false);
    }
    const pki_func **reds = host_reductions(c, g);
    for (int r = 1; r < g->nresults; r++) { /* the later reductions' results */
      const char *name = pki_sprintf(c->m->arena, "pkc_result%d", r);
      pki_var res = {.name = name, .type = reds[r]->acc->type};
      pkb_abi_param_desc(c, &res, name, PKI_ACCESS_WRITE, false);
    }
    pkb_line(c->b, "};");
  }
}

int pkb_host_fused_kernels(pkb_ctx *c) {
  const pki_fusion_plan *p = c->m->fusion;
  int n = 0;
  for (int i = 0; p && i < p->host.n; i++) {
    const pki_host_fused *g = PKI_AT(p->host, i, pki_host_fused);
    if (!host_built(c, g))
      continue;
    const pki_func *pf = pattern_kernel(g);
    const char *name = pki_sprintf(c->m->arena, "pkc_fused%d", g->id);
    int nresults = g->nresults > 1 ? g->nresults - 1 : 0;
    pkb_abi_kernel_desc(c, name, name, (int)pf->pattern, (int)pf->policy, (int)pf->reducer,
                        g->nparams + g->repeat + nresults,
                        pki_sprintf(c->m->arena, "params_fused%d", g->id), pf->acc,
                        link_of(g, 0)->span.line, host_wrapper_name(c, g), false);
    n++;
  }
  return n;
}

const char *pkb_json_str(pki_arena *a, const char *s) {
  size_t n = strlen(s), k = 0;
  char *out = pki_alloc(a, 2 * n + 3);
  out[k++] = '"';
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      out[k++] = '\\';
    out[k++] = (unsigned char)*s < 0x20 ? ' ' : *s;
  }
  out[k++] = '"';
  out[k] = '\0';
  return out;
}

/* The arguments of link l as written, a JSON list in parameter order. */
static const char *link_args(pkb_ctx *c, const pki_host_launch *l) {
  const char *s = "";
  for (int p = 0; p < l->kernel->nparams; p++)
    s = pki_sprintf(c->m->arena, "%s%s%s", s, p ? ", " : "", pkb_json_str(c->m->arena, l->args[p]));
  return s;
}

/* One JSON object per variant: what the shim needs to match queued calls. */
static const char *variant_json(pkb_ctx *c, const pki_host_fused *g) {
  pki_arena *a = c->m->arena;
  const char *s = pki_sprintf(a, "{\"kernel\": \"pkc_fused%d\", \"repeat\": %s, %s\"links\": [",
                              g->id, g->repeat ? "true" : "false",
                              g->scatter ? "\"scatter\": true, " : "");
  for (int k = 0; k < g->n; k++) {
    const pki_host_launch *l = link_of(g, k);
    s = pki_sprintf(a, "%s%s{\"kernel\": %s, \"lines\": [%u, %u], \"bind\": {", s, k ? ", " : "",
                    pkb_json_str(a, l->kernel->name), (unsigned)l->span.line,
                    (unsigned)l->span.end_line);
    for (int p = 0; p < l->kernel->nparams; p++)
      s = pki_sprintf(a, "%s%s%s: %s", s, p ? ", " : "", pkb_json_str(a, l->kernel->params[p]->name),
                      pkb_json_str(a, g->names[g->bind[k][p]]));
    s = pki_sprintf(a, "%s}", s);
    if (g->nresults > 1) /* the texts the shim reads ahead of a later reduction's statement */
      s = pki_sprintf(a, "%s, \"policy\": %s, \"args\": [%s], \"result\": %s", s,
                      pkb_json_str(a, l->policy), link_args(c, l),
                      l->pattern == PKI_PATTERN_REDUCE ? "true" : "false");
    s = pki_sprintf(a, "%s}", s);
  }
  s = pki_sprintf(a, "%s], \"views\": [", s);
  int nv = 0;
  for (int j = 0; j < g->nparams; j++)
    if (g->params[j]->type.kind == PKI_VIEW)
      s = pki_sprintf(a, "%s%s%s", s, nv++ ? ", " : "", pkb_json_str(a, g->names[j]));
  s = pki_sprintf(a, "%s], \"written\": [", s);
  nv = 0;
  for (int j = 0; j < g->nparams; j++)
    if (g->params[j]->type.kind == PKI_VIEW && (host_access(g, j) & PKI_ACCESS_WRITE))
      s = pki_sprintf(a, "%s%s%s", s, nv++ ? ", " : "", pkb_json_str(a, g->names[j]));
  s = pki_sprintf(a, "%s]", s);
  if (g->repeat)
    s = pki_sprintf(a, "%s, \"loop\": {\"var\": %s, \"range\": [%s, %s, %s]}", s,
                    pkb_json_str(a, g->chain->loop_var), pkb_json_str(a, g->chain->range[0]),
                    pkb_json_str(a, g->chain->range[1]), pkb_json_str(a, g->chain->range[2]));
  return pki_sprintf(a, "%s, \"why\": %s}\n", s, pkb_json_str(a, g->why));
}

void pkb_json_lines_function(pkb_buf *b, const char *name, const pki_vec *lines) {
  pkb_line(b, "extern \"C\" PKC_EXPORT const char *%s(void) {", name);
  pkb_line(b, "  return");
  pkb_begin(b, "      \"\"");
  for (int i = 0; i < lines->n; i++) {
    pkb_put(b, "\n");
    pkb_begin(b, "      ");
    pkb_put_cstr(b, (const char *)lines->items[i]);
  }
  pkb_put(b, ";\n");
  pkb_line(b, "}");
}

void pkb_host_fusion_table(pkb_ctx *c) {
  const pki_fusion_plan *p = c->m->fusion;
  if (!p || !p->host.n)
    return;
  pki_vec lines = {0};
  for (int i = 0; i < p->host.n; i++)
    if (host_built(c, PKI_AT(p->host, i, pki_host_fused)))
      pki_vec_push(c->m->arena, &lines, (void *)variant_json(c, PKI_AT(p->host, i, pki_host_fused)));
  pkb_buf *b = c->b;
  pkb_nl(b);
  pkb_line(b, "// ---- fused variants of host-code launches (pykokkos/_fusion.py matches the");
  pkb_line(b, "// queued calls against them; one JSON object per line) ----");
  pkb_json_lines_function(b, "pkc_fusion_v1", &lines);
}

/* ------------------------------------- chains with point-resident Views
 * The links' bodies are written inline, in a block per link that binds its
 * work indices to the point; the elements of the resident Views (ir:
 * pki_point_only) are loaded into locals before the links (and repetitions)
 * and stored after them, so that the chain runs in registers. Over a range,
 * fusion_lanes points of a tile run side by side (local arrays, loops the
 * compiler vectorizes: the locals alias nothing). The shim and @pk.main
 * launch these kernels only when the Views written do not overlap the
 * others (the condition of a restrict-qualified variant). */

typedef struct idx_count {
  const pki_var *var;
  const pkb_ctx *c;
  int uses, in_points;
} idx_count;

static void count_index(pki_visitor *v, const pki_expr *e) {
  idx_count *n = v->data;
  if (e->kind == PKI_E_VAR && e->var == n->var)
    n->uses++;
  if (e->kind == PKI_E_INDEX && e->nargs)
    for (int k = 0; k < n->c->npoint; k++)
      if ((e->args[0]->kind == PKI_E_VAR || e->args[0]->kind == PKI_E_FIELD) &&
          e->args[0]->var == n->c->point_vars[k])
        n->in_points++;
}

/* Whether f reads work index v other than in accesses kept in registers. */
static bool index_needed(pkb_ctx *c, const pki_func *f, const pki_var *v) {
  idx_count n = {v, c, 0, 0};
  pki_visitor vis = {.expr = count_index, .data = &n};
  pki_visit_func(&vis, f);
  return n.uses > n.in_points;
}

/* One link of a point operator: its kernel; member: the functor member
 * holding its parameters (host chains; NULL: the workload's own members);
 * red: the local its accumulator is (a reduction); bound: per parameter,
 * whether its block binds it; the resident Views of its body (params or
 * members) and their locals. */
typedef struct point_link {
  const pki_func *f;
  const char *member;
  const char *red;
  const bool *bound;
  const pki_var **vars;
  const char **locals;
  int nvars;
} point_link;

/* A View kept in registers: its local, the expression of the View, its
 * element kind, and whether the chain writes it. */
typedef struct point_res {
  const char *local, *view;
  pki_kind elem;
  bool written;
  bool stored_first; /* the links store it before reading it: not loaded */
} point_res;

typedef struct point_op {
  const char *tag;
  int rank;
  const char *begin, *end; /* range: the members holding it (work items are tiles) */
  const char *reps;        /* repeated chains: the trip count member */
  const pki_func *const *reds; /* the reductions, in order (their links' red: pkc_red<r>) */
  int nreds;
  const point_res *res;
  int nres;
  const point_link *links;
  int nlinks;
} point_op;

/* { body of link l } with its work indices bound to pkc_i0, pkc_i1, ... */
static void inline_link(pkb_ctx *c, const point_link *l, const char *lane) {
  pkb_buf *b = c->b;
  const pki_func *f = l->f;
  const char **names = pki_alloc(c->m->arena, sizeof *names * (size_t)(l->nvars + 1));
  for (int k = 0; k < l->nvars; k++)
    names[k] = lane ? pki_sprintf(c->m->arena, "%s[%s]", l->locals[k], lane) : l->locals[k];
  c->point_vars = l->vars;
  c->point_names = names;
  c->npoint = l->nvars;
  pkb_line(b, "{  // %s (line %u)", f->name, (unsigned)f->span.line);
  b->indent++;
  for (int d = 0; d < f->nindex; d++)
    if (index_needed(c, f, f->index[d])) {
      pkb_begin(b, "%s", f->index[d]->access & PKI_ACCESS_WRITE ? "int64_t " : "const int64_t ");
      pkb_put_ident(b, f->index[d]->name);
      pkb_putf(b, " = pkc_i%d;\n", d);
    }
  for (int p = 0; l->member && p < f->nparams; p++)
    if (l->bound[p] && pkb_var_used(f, f->params[p])) {
      const pki_var *v = f->params[p];
      if (v->type.kind == PKI_VIEW || v->type.kind == PKI_POOL) {
        pkb_begin(b, "const auto &");
      } else { /* a scalar by value: a register, not the functor's memory */
        pkb_begin(b, "const ");
        pkb_put_type(b, v->type);
        pkb_put(b, " ");
      }
      pkb_put_ident(b, v->name);
      pkb_putf(b, " = %s.", l->member);
      pkb_put_ident(b, v->name);
      pkb_put(b, ";\n");
    }
  if (f->acc) {
    pkb_begin(b, "%s", "");
    pkb_put_acc_type(b, f);
    pkb_put(b, " &");
    pkb_put_ident(b, f->acc->name);
    pkb_putf(b, " = %s;\n", l->red);
  }
  const pki_func *saved = c->fn;
  c->fn = f;
  pkb_emit_block(c, &f->body);
  c->fn = saved;
  c->npoint = 0;
  b->indent--;
  pkb_line(b, "}");
  pkb_restore_line(c);
}

static void point_links(pkb_ctx *c, const point_op *op, const char *lane) {
  pkb_buf *b = c->b;
  if (op->reps) {
    pkb_line(b, "for (int64_t pkc_rep = 0; pkc_rep < %s; ++pkc_rep) {", op->reps);
    b->indent++;
  }
  if (lane) {
    pkb_line(b, "for (int64_t pkc_l = 0; pkc_l < pkc_n; ++pkc_l) {");
    b->indent++;
    bool needed = false; /* some link reads its work index */
    for (int k = 0; k < op->nlinks && !needed; k++) {
      c->point_vars = op->links[k].vars;
      c->npoint = op->links[k].nvars;
      needed = index_needed(c, op->links[k].f, op->links[k].f->index[0]);
    }
    c->npoint = 0;
    if (needed)
      pkb_line(b, "const int64_t pkc_i0 = pkc_i + pkc_l;");
  }
  for (int k = 0; k < op->nlinks; k++)
    inline_link(c, &op->links[k], lane);
  if (lane) {
    b->indent--;
    pkb_line(b, "}");
  }
  if (op->reps) {
    b->indent--;
    pkb_line(b, "}");
  }
}

static void point_body(pkb_ctx *c, const point_op *op);

static void point_operator(pkb_ctx *c, const point_op *op) {
  pkb_buf *b = c->b;
  pkb_begin(b, "KOKKOS_INLINE_FUNCTION void operator()(const %s &", op->tag);
  if (op->begin)
    pkb_put(b, ", const int64_t pkc_tile");
  for (int d = 0; d < op->rank && !op->begin; d++)
    pkb_putf(b, ", const int64_t pkc_i%d", d);
  for (int r = 0; r < op->nreds; r++) {
    pkb_put(b, ", ");
    pkb_put_acc_type(b, op->reds[r]);
    pkb_putf(b, " &%s", acc_name(c, "pkc_acc", "pkc_acc", r, op->nreds));
  }
  pkb_put(b, ") const {\n");
  b->indent++;
  for (int r = 0; r < op->nreds; r++) { /* a local (no View store may alias) carries each */
    pkb_begin(b, "%s", "");
    pkb_put_acc_type(b, op->reds[r]);
    pkb_putf(b, " %s = %s;\n", acc_name(c, "pkc_red", "pkc_red", r, op->nreds),
             acc_name(c, "pkc_acc", "pkc_acc", r, op->nreds));
  }
  point_body(c, op);
  for (int r = 0; r < op->nreds; r++)
    pkb_line(b, "%s = %s;", acc_name(c, "pkc_acc", "pkc_acc", r, op->nreds),
             acc_name(c, "pkc_red", "pkc_red", r, op->nreds));
  b->indent--;
  pkb_line(b, "}");
}

/* The loads, the links and the stores of one point (an MDRange point, or
 * each point of a tile of a chain that runs once). */
static void point_scalar(pkb_ctx *c, const point_op *op, const char *at) {
  pkb_buf *b = c->b;
  pkb_line(b, "// the point's elements stay in registers over %s",
           op->reps ? "the links and their repetitions" : "the links");
  for (int r = 0; r < op->nres; r++)
    if (op->res[r].stored_first)
      pkb_line(b, "%s %s;  // stored before it is read", pkb_scalar_ctype(op->res[r].elem),
               op->res[r].local);
    else
      pkb_line(b, "%s%s %s = %s(%s);", op->res[r].written ? "" : "const ",
               pkb_scalar_ctype(op->res[r].elem), op->res[r].local, op->res[r].view, at);
  point_links(c, op, NULL);
  for (int r = 0; r < op->nres; r++)
    if (op->res[r].written)
      pkb_line(b, "%s(%s) = %s;", op->res[r].view, at, op->res[r].local);
}

static void point_body(pkb_ctx *c, const point_op *op) {
  pkb_buf *b = c->b;
  const char *what = op->reps ? "the links and their repetitions" : "the links";
  if (!op->begin) { /* an MDRange: one point */
    const char *at = "";
    for (int d = 0; d < op->rank; d++)
      at = pki_sprintf(c->m->arena, "%s%spkc_i%d", at, d ? ", " : "", d);
    point_scalar(c, op, at);
    return;
  }
  pkb_line(b, "const int64_t pkc_first = %s + pkc_tile * pkc::fusion_tile;", op->begin);
  pkb_line(b, "const int64_t pkc_last = pkc_first + pkc::fusion_tile < %s ? pkc_first + "
              "pkc::fusion_tile : %s;", op->end, op->end);
  if (!op->reps) { /* once: point by point */
    pkb_line(b, "for (int64_t pkc_i0 = pkc_first; pkc_i0 < pkc_last; ++pkc_i0) {");
    b->indent++;
    point_scalar(c, op, "pkc_i0");
    b->indent--;
    pkb_line(b, "}");
    return;
  }
  pkb_line(b, "for (int64_t pkc_i = pkc_first; pkc_i < pkc_last; pkc_i += pkc::fusion_lanes) {");
  b->indent++;
  pkb_line(b, "const int64_t pkc_n = pkc_last - pkc_i < pkc::fusion_lanes ? pkc_last - pkc_i : "
              "pkc::fusion_lanes;");
  pkb_line(b, "// the points' elements stay in registers over %s", what);
  for (int r = 0; r < op->nres; r++)
    pkb_line(b, "%s %s[pkc::fusion_lanes];", pkb_scalar_ctype(op->res[r].elem), op->res[r].local);
  bool loads = false;
  for (int r = 0; r < op->nres; r++)
    loads |= !op->res[r].stored_first;
  if (loads) {
    pkb_line(b, "for (int64_t pkc_l = 0; pkc_l < pkc_n; ++pkc_l) {");
    for (int r = 0; r < op->nres; r++)
      if (!op->res[r].stored_first)
        pkb_line(b, "  %s[pkc_l] = %s(pkc_i + pkc_l);", op->res[r].local, op->res[r].view);
    pkb_line(b, "}");
  }
  point_links(c, op, "pkc_l");
  bool stores = false;
  for (int r = 0; r < op->nres; r++)
    stores |= op->res[r].written;
  if (stores) {
    pkb_line(b, "for (int64_t pkc_l = 0; pkc_l < pkc_n; ++pkc_l) {");
    for (int r = 0; r < op->nres; r++)
      if (op->res[r].written)
        pkb_line(b, "  %s(pkc_i + pkc_l) = %s[pkc_l];", op->res[r].view, op->res[r].local);
    pkb_line(b, "}");
  }
  b->indent--;
  pkb_line(b, "}");
}

static const char *point_name(pkb_ctx *c, const char *text, const char *const *taken, int n) {
  char *s = pki_sprintf(c->m->arena, "pkc_%s", text);
  for (char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
      *p = '_';
  for (int k = 0; k < n; k++)
    if (taken[k] && !strcmp(taken[k], s))
      return point_name(c, pki_sprintf(c->m->arena, "%s_%d", text, n), taken, n);
  return s;
}

static bool host_point(const pki_host_fused *g) {
  for (int j = 0; g->resident && j < g->nparams; j++)
    if (g->resident[j])
      return true;
  return false;
}

static void host_point_operator(pkb_ctx *c, const pki_host_fused *g) {
  pki_arena *a = c->m->arena;
  const char **names = pki_alloc(a, sizeof *names * (size_t)(g->nparams + 1));
  point_res *res = pki_alloc(a, sizeof *res * (size_t)(g->nparams + 1));
  int *slot = pki_alloc(a, sizeof *slot * (size_t)(g->nparams + 1));
  int nres = 0;
  for (int j = 0; j < g->nparams; j++)
    slot[j] = -1;
  for (int k = 0; k < g->n; k++) /* a resident View by its first link's member */
    for (int p = 0; p < link_of(g, k)->kernel->nparams; p++) {
      int j = g->bind[k][p];
      if (!g->resident[j] || slot[j] >= 0)
        continue;
      const pki_var *v = link_of(g, k)->kernel->params[p];
      names[j] = point_name(c, g->names[j], names, j);
      slot[j] = nres;
      res[nres++] = (point_res){names[j],
                                pki_sprintf(a, "%s.%s", member_name(c, g, k),
                                            pkb_ident(a, v->name)),
                                v->type.elem, (host_access(g, j) & PKI_ACCESS_WRITE) != 0,
                                g->stored_first[j]};
    }
  point_link *links = pki_alloc(a, sizeof *links * (size_t)g->n);
  for (int k = 0, r = 0; k < g->n; k++) {
    const pki_func *f = link_of(g, k)->kernel;
    point_link *l = &links[k];
    bool *bound = pki_alloc(a, sizeof *bound * (size_t)(f->nparams + 1));
    *l = (point_link){.f = f, .member = member_name(c, g, k), .bound = bound};
    if (f->pattern == PKI_PATTERN_REDUCE)
      l->red = acc_name(c, "pkc_red", "pkc_red", r++, g->nresults);
    l->vars = pki_alloc(a, sizeof *l->vars * (size_t)(f->nparams + 1));
    l->locals = pki_alloc(a, sizeof *l->locals * (size_t)(f->nparams + 1));
    for (int p = 0; p < f->nparams; p++) {
      int j = g->bind[k][p];
      bound[p] = !g->resident[j] || pki_extent_used(f, f->params[p]);
      if (g->resident[j]) {
        l->vars[l->nvars] = f->params[p];
        l->locals[l->nvars++] = names[j];
      }
    }
  }
  point_op op = {.tag = pki_sprintf(a, "pkc_fused%d_tag", g->id),
                 .rank = link_of(g, 0)->kernel->nindex,
                 .begin = host_tiled(g) ? "begin" : NULL,
                 .end = host_tiled(g) ? "end" : NULL,
                 .reps = g->repeat ? "reps" : NULL,
                 .reds = host_reductions(c, g), .nreds = g->nresults,
                 .res = res, .nres = nres, .links = links, .nlinks = g->n};
  point_operator(c, &op);
}

static void workload_point_operator(pkb_ctx *c, const pki_fused *g) {
  pki_arena *a = c->m->arena;
  const char **names = pki_alloc(a, sizeof *names * (size_t)(g->nresident + 1));
  point_res *res = pki_alloc(a, sizeof *res * (size_t)(g->nresident + 1));
  for (int r = 0; r < g->nresident; r++) {
    names[r] = point_name(c, g->resident[r]->name, names, r);
    res[r] = (point_res){names[r], pkb_ident(a, g->resident[r]->name),
                         g->resident[r]->type.elem,
                         (g->resident_mode[r] & PKI_MEM_WRITE) != 0,
                         g->resident_stored[r]};
  }
  int nred;
  const pki_stmt **reds = group_reductions(c, g, &nred);
  const pki_func **red_fs = pki_alloc(a, sizeof *red_fs * (size_t)(nred + 1));
  for (int r = 0; r < nred; r++)
    red_fs[r] = reds[r]->closure;
  point_link *links = pki_alloc(a, sizeof *links * (size_t)g->n);
  for (int k = 0, r = 0; k < g->n; k++) {
    links[k] = (point_link){.f = g->stmts[k]->closure, .vars = g->resident, .locals = names,
                            .nvars = g->nresident};
    if (g->stmts[k]->pattern == PKI_PATTERN_REDUCE)
      links[k].red = acc_name(c, "pkc_red", "pkc_red", r++, nred);
  }
  point_op op = {.tag = fused_tag(c, g),
                 .rank = g->stmts[0]->closure->nindex,
                 .begin = tiled(g) ? pki_sprintf(a, "pkc_fused%d_begin", g->id) : NULL,
                 .end = tiled(g) ? pki_sprintf(a, "pkc_fused%d_end", g->id) : NULL,
                 .reps = g->loop ? pki_sprintf(a, "pkc_fused%d_reps", g->id) : NULL,
                 .reds = red_fs, .nreds = nred,
                 .res = res, .nres = g->nresident, .links = links, .nlinks = g->n};
  pkb_nl(c->b);
  pkb_line(c->b, "// %s", pkb_comment_text(a, g->why));
  point_operator(c, &op);
}
