/*
 * emit_fusion.c - the fused kernels of a workload (the plan of
 * ir/fuse_plan.c): a tag and an operator() per group that calls the
 * group's workunits at the same point, in order (a repeated chain loops over
 * them), and in @pk.main the choice between the fused dispatch and the
 * original statements (PKC_FUSION=0, bounds that differ at run time and
 * overlapping View members take the original ones).
 */
#include "access.h"
#include "pkb_priv.h"

static const char *fused_tag(pkb_ctx *c, const pki_fused *g) {
  return pki_sprintf(c->m->arena, "pkc_fused%d_tag", g->id);
}

static bool in_entity(const pki_fused *g, const pki_entity *e) { return g->main->owner == e; }

/* The reduction of a group (at most one), or NULL. */
static const pki_stmt *group_reduce(const pki_fused *g) {
  for (int k = 0; k < g->n; k++)
    if (g->stmts[k]->pattern == PKI_PATTERN_REDUCE)
      return g->stmts[k];
  return NULL;
}

/* A repeated chain over a 1-D range runs per tile of pkc::fusion_tile
 * points (all repetitions of a tile while it is in cache; one point per
 * tile on GPUs). */
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
    if (in_entity(g, e) && g->loop) {
      pkb_line(c->b, "int64_t pkc_fused%d_reps = 0;  // trip count of the loop of line %u", g->id,
               (unsigned)g->loop->span.line);
      if (tiled(g))
        pkb_line(c->b, "int64_t pkc_fused%d_begin = 0, pkc_fused%d_end = 0;  // its range", g->id, g->id);
    }
  }
}

static void fused_operator(pkb_ctx *c, const pki_fused *g) {
  pkb_buf *b = c->b;
  const pki_stmt *red = group_reduce(g);
  int rank = g->stmts[0]->closure->nindex;
  pkb_nl(b);
  pkb_line(b, "// %s", pkb_comment_text(c->m->arena, g->why));
  pkb_begin(b, "KOKKOS_INLINE_FUNCTION void operator()(const %s &", fused_tag(c, g));
  for (int d = 0; d < rank; d++)
    pkb_putf(b, ", const int64_t i%d", d);
  if (red) {
    pkb_put(b, ", ");
    pkb_put_type(b, red->closure->acc->type);
    pkb_put(b, " &acc");
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
  for (int k = 0; k < g->n; k++) {
    const pki_func *f = g->stmts[k]->closure;
    pkb_begin(b, "(*this)(%s{}", pkb_tag_name(c->m->arena, f));
    for (int d = 0; d < rank; d++)
      pkb_putf(b, ", i%d", d);
    pkb_put(b, f->acc ? ", acc);\n" : ");\n");
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
  const pki_stmt *red = group_reduce(g);
  pki_stmt d = *g->stmts[0]; /* the first's policy; the reduction's pattern and target */
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
  d.pattern = red ? PKI_PATTERN_REDUCE : PKI_PATTERN_FOR;
  d.closure = red ? red->closure : g->stmts[0]->closure;
  d.target = red ? red->target : NULL;
  const char *label = "";
  for (int k = 0; k < g->n; k++)
    label = pki_sprintf(c->m->arena, "%s%s%s", label, k ? "+" : "fused:",
                        g->stmts[k]->str ? g->stmts[k]->str : g->stmts[k]->closure->name);
  d.str = g->loop ? pki_sprintf(c->m->arena, "%s*reps", label) : label;
  pkb_emit_dispatch_tagged(c, &d, pki_sprintf(c->m->arena, "%s::%s",
                                             pkb_ident(c->m->arena, g->main->owner->name),
                                             fused_tag(c, g)));
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
