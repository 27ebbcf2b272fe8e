/*
 * emit_footprint.c - pkc_footprint_v1(): for each RangePolicy/MDRange
 * parallel_for kernel of the module, the elements of each View one work
 * item touches (ir/footprint.c), one JSON object per line:
 *
 *   {"entity": "jacobi", "kernel": "jacobi", "views": {"u": {"mode": "r",
 *    "dims": [[0, -1, 1], [1, -1, 1]]}, ...}}
 *
 * dims: per View dimension [work index, lo, hi] (work index + lo .. + hi),
 * [-1, lo, hi] (the constants lo .. hi) or null (any element); mode: r, w or
 * rw. A kernel with an access pkc cannot bound has "views": null.
 * pykokkos/_graph.py turns them into the boxes a captured launch touches.
 * "gate": true where the kernel's entry point honours pkc_policy.gate (an
 * MDRange parallel_for, pkb_launch_gated): pk.Graph gates only those.
 */
#include "pkb_priv.h"
#include "access.h"

static const char *dim_json(pki_arena *a, const pki_footprint_dim *d) {
  if (d->work == PKI_FOOTPRINT_ANY)
    return "null";
  return pki_sprintf(a, "[%d, %lld, %lld]", d->work, (long long)d->lo, (long long)d->hi);
}

static const char *view_json(pki_arena *a, const pki_footprint *fp) {
  bool r = fp->mode & (PKI_MEM_READ | PKI_MEM_ATOMIC), w = fp->mode & PKI_MEM_WRITE;
  const char *s = pki_sprintf(a, "%s: {\"mode\": \"%s%s\", \"dims\": [", pkb_json_str(a, fp->view->name),
                              r ? "r" : "", w ? "w" : "");
  for (int d = 0; d < fp->rank; d++)
    s = pki_sprintf(a, "%s%s%s", s, d ? ", " : "", dim_json(a, &fp->dim[d]));
  return pki_sprintf(a, "%s]}", s);
}

static const char *kernel_json(pki_arena *a, const pki_func *f) {
  const char *s = pki_sprintf(a, "{\"entity\": %s, \"kernel\": %s, \"views\": ",
                              pkb_json_str(a, f->owner ? f->owner->name : f->name),
                              pkb_json_str(a, f->name));
  if (!f->footprint_known)
    return pki_sprintf(a, "%snull}\n", s);
  s = pki_sprintf(a, "%s{", s);
  for (int i = 0; i < f->footprint.n; i++)
    s = pki_sprintf(a, "%s%s%s", s, i ? ", " : "",
                    view_json(a, PKI_AT(f->footprint, i, pki_footprint)));
  return pki_sprintf(a, "%s}%s}\n", s, pkb_launch_gated(f) ? ", \"gate\": true" : "");
}

bool pkb_launch_gated(const pki_func *f) {
  return f->pattern == PKI_PATTERN_FOR && f->policy == PKI_POLICY_MDRANGE && !f->is_main;
}

int pkb_footprint_count(const pki_module *m) {
  int n = 0;
  for (int i = 0; i < m->nentities; i++)
    for (int j = 0; j < m->entities[i]->nfuncs; j++)
      n += m->entities[i]->funcs[j]->footprint_planned;
  return n;
}

void pkb_footprint_table(pkb_ctx *c) {
  const pki_module *m = c->m;
  pki_vec lines = {0};
  for (int i = 0; i < m->nentities; i++)
    for (int j = 0; j < m->entities[i]->nfuncs; j++)
      if (m->entities[i]->funcs[j]->footprint_planned)
        pki_vec_push(m->arena, &lines, (void *)kernel_json(m->arena, m->entities[i]->funcs[j]));
  if (!lines.n)
    return;
  pkb_buf *b = c->b;
  pkb_nl(b);
  pkb_line(b, "// ---- the View elements a work item touches, per kernel (ir/footprint.c):");
  pkb_line(b, "// pk.Graph makes a captured launch wait only for launches it conflicts with ----");
  pkb_json_lines_function(b, "pkc_footprint_v1", &lines);
}
