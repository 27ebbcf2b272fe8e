/* test_fusion_host.c - chains of launch statements in host code
 * (frontend/host_chains.c) and their fusion plan (ir/fuse_host.c): which
 * statements are links, argument identity by text (one parameter per View),
 * repeated loops, reductions in a row (the later ones run ahead of their
 * statements), and the refusals (neighbour reads, the loop variable as an
 * argument, a reduction before another launch, a later reduction reading an
 * earlier result, writing a View, or after a result assigned to an
 * attribute), each with its note. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "access.h"
#include "frontend_test_util.h"

#define KERNELS                                                                       \
  "import pykokkos as pk\n"                                                           \
  "@pk.workunit\n"                                                                    \
  "def axpy(i: int, y: pk.View1D[pk.double], x: pk.View1D[pk.double], a: float):\n"  \
  "    y[i] += a * x[i]\n"                                                            \
  "@pk.workunit\n"                                                                    \
  "def scale(i: int, y: pk.View1D[pk.double], s: float):\n"                          \
  "    y[i] *= s\n"                                                                   \
  "@pk.workunit\n"                                                                    \
  "def shift(i: int, z: pk.View1D[pk.double], y: pk.View1D[pk.double]):\n"           \
  "    z[i] = y[(i + 1) % y.extent(0)]\n"                                             \
  "@pk.workunit\n"                                                                    \
  "def total(i: int, acc: pk.Acc[pk.double], y: pk.View1D[pk.double]):\n"            \
  "    acc += y[i]\n"                                                                 \
  "@pk.workunit\n"                                                                    \
  "def top(i: int, acc: pk.Max[pk.int64], y: pk.View1D[pk.double]):\n"               \
  "    acc = max(acc, int(y[i]))\n"                                                   \
  "@pk.workunit\n"                                                                    \
  "def drain(i: int, acc: pk.Acc[pk.double], y: pk.View1D[pk.double]):\n"            \
  "    acc += y[i]\n"                                                                 \
  "    y[i] = 0.0\n"

/* Lowers, checks and plans src (KERNELS then the host code); fails on errors. */
static pki_module *plan(const char *host) {
  size_t n = strlen(KERNELS) + strlen(host) + 1;
  char *src = malloc(n);
  snprintf(src, n, "%s%s", KERNELS, host);
  pki_diags d;
  pki_module *m = lower(src, &d);
  int errors = d.errors + pki_check(m, &d);
  assert_int_equal(errors, 0);
  pki_fusion_plan_module(m);
  free(src); /* the module keeps its own copy */
  return m;
}

static const pki_host_fused *group(const pki_module *m, int i) {
  assert_true(i < m->fusion->host.n);
  return PKI_AT(m->fusion->host, i, pki_host_fused);
}

/* The note at line, or fails. */
static const pki_fusion_note *note_at(const pki_module *m, unsigned line) {
  for (int i = 0; i < m->fusion->notes.n; i++) {
    const pki_fusion_note *n = PKI_AT(m->fusion->notes, i, pki_fusion_note);
    if (n->at.line == line)
      return n;
  }
  fail_msg("no note at line %u", line);
  return NULL;
}

/* Lines of the host code start after KERNELS' 20 lines. */
#define L(k) (20u + (k))

static void test_chain_argument_fusion(void **state) {
  (void)state;
  pki_module *m = plan("def main(n, x, y):\n"                              /* L(1) */
                       "    pk.parallel_for(n, axpy, y=y, x=x, a=2.0)\n"   /* L(2) */
                       "    pk.parallel_for(n, scale, y=y, s=0.5)\n"       /* L(3) */
                       "    r = pk.parallel_reduce(n, total, y=y)\n");     /* L(4) */
  assert_int_equal(m->host_chains.n, 1);
  assert_int_equal(m->fusion->host.n, 1);
  const pki_host_fused *g = group(m, 0);
  assert_int_equal(g->n, 3);
  assert_false(g->repeat);
  /* y (once), x, axpy.a, s: y passed three times is one parameter */
  assert_int_equal(g->nparams, 4);
  assert_string_equal(g->names[0], "y");
  assert_string_equal(g->names[1], "x");
  assert_string_equal(g->names[2], "axpy.a");
  assert_string_equal(g->names[3], "scale.s");
  assert_int_equal(g->bind[1][0], 0);
  assert_int_equal(g->bind[2][0], 0);
  assert_true(note_at(m, L(2))->fused);
  pki_module_free(m);
}

static void test_neighbour_read_refused(void **state) {
  (void)state;
  pki_module *m = plan("def main(n, y, z):\n"
                       "    pk.parallel_for(n, scale, y=y, s=2.0)\n"
                       "    pk.parallel_for(n, shift, z=z, y=y)\n");
  assert_int_equal(m->fusion->host.n, 0);
  const pki_fusion_note *n = note_at(m, L(3));
  assert_false(n->fused);
  assert_string_equal(n->rule, "raw");
  assert_non_null(strstr(n->text, "reads 'y' at (i + 1) % y.extent(0)"));
  pki_module_free(m);
}

static void test_distinct_texts_are_distinct_views(void **state) {
  (void)state;
  /* y and z are other texts: shift's neighbour read of y does not meet z */
  pki_module *m = plan("def main(n, y, z):\n"
                       "    pk.parallel_for(n, scale, y=z, s=2.0)\n"
                       "    pk.parallel_for(n, shift, z=z, y=y)\n");
  assert_int_equal(m->fusion->host.n, 1);
  const pki_host_fused *g = group(m, 0);
  assert_int_equal(g->nparams, 3); /* z, scale.s, y */
  pki_module_free(m);
}

static void test_repeated_loop(void **state) {
  (void)state;
  pki_module *m = plan("def main(n, x, y, k):\n"
                       "    for it in range(1, k + 1):\n"
                       "        pk.parallel_for(n, axpy, y=y, x=x, a=0.5)\n"
                       "        pk.parallel_for(n, scale, y=y, s=0.5)\n");
  assert_int_equal(m->fusion->host.n, 1);
  const pki_host_fused *g = group(m, 0);
  assert_true(g->repeat);
  assert_int_equal(g->n, 2);
  assert_string_equal(g->chain->loop_var, "it");
  assert_string_equal(g->chain->range[0], "1");
  assert_string_equal(g->chain->range[1], "k + 1");
  assert_string_equal(g->chain->range[2], "1");
  pki_module_free(m);
}

static void test_loop_variable_argument(void **state) {
  (void)state;
  /* the loop variable changes a scalar: not repeated, the body fuses per iteration */
  pki_module *m = plan("def main(n, x, y):\n"
                       "    for t in range(4):\n"
                       "        pk.parallel_for(n, axpy, y=y, x=x, a=t)\n"
                       "        pk.parallel_for(n, scale, y=y, s=0.5)\n");
  assert_int_equal(m->fusion->host.n, 1);
  assert_false(group(m, 0)->repeat);
  assert_int_equal(group(m, 0)->n, 2);
  pki_module_free(m);
}

static void test_reduction_ends_a_group(void **state) {
  (void)state;
  pki_module *m = plan("def main(n, x, y):\n"
                       "    r = pk.parallel_reduce(n, total, y=y)\n"
                       "    pk.parallel_for(n, scale, y=y, s=r)\n");
  assert_int_equal(m->fusion->host.n, 0);
  const pki_fusion_note *n = note_at(m, L(3));
  assert_string_equal(n->rule, "reductions");
  pki_module_free(m);
}

static void test_reductions_in_a_row(void **state) {
  (void)state;
  pki_module *m = plan("def main(n, x, y):\n"                           /* L(1) */
                       "    pk.parallel_for(n, scale, y=y, s=0.5)\n"    /* L(2) */
                       "    r = pk.parallel_reduce(n, total, y=y)\n"    /* L(3) */
                       "    t = pk.parallel_reduce(n, top, y=x)\n"      /* L(4) */
                       "    u = pk.parallel_reduce(n, total, y=x)\n");  /* L(5) */
  assert_int_equal(m->fusion->host.n, 1);
  const pki_host_fused *g = group(m, 0);
  assert_int_equal(g->n, 4);
  assert_int_equal(g->nresults, 3);
  assert_string_equal(g->chain->launches[g->first + 1].target, "r");
  const pki_fusion_note *n = note_at(m, L(2));
  assert_true(n->fused);
  assert_non_null(strstr(n->text, "computing their 3 reductions in one pass"));
  pki_module_free(m);
}

/* A later reduction may not read an earlier result, write a View, or
 * follow a result assigned to an attribute (the assignment may run code). */
static void test_reductions_in_a_row_refused(void **state) {
  (void)state;
  pki_module *m = plan("def main(n, x, y, w):\n"                         /* L(1) */
                       "    r = pk.parallel_reduce(n, total, y=y)\n"    /* L(2) */
                       "    t = pk.parallel_reduce(r, top, y=x)\n"      /* L(3) */
                       "    pk.fence()\n"                               /* L(4) */
                       "    r = pk.parallel_reduce(n, total, y=y)\n"    /* L(5) */
                       "    t = pk.parallel_reduce(n, drain, y=y)\n"    /* L(6) */
                       "    pk.fence()\n"                               /* L(7) */
                       "    w.r = pk.parallel_reduce(n, total, y=y)\n"  /* L(8) */
                       "    t = pk.parallel_reduce(n, top, y=y)\n");    /* L(9) */
  assert_int_equal(m->fusion->host.n, 0);
  assert_string_equal(note_at(m, L(3))->rule, "result");
  assert_non_null(strstr(note_at(m, L(6))->text, "'drain' (line 26) writes a View"));
  assert_non_null(strstr(note_at(m, L(9))->text, "is assigned to 'w.r', not to a plain name"));
  assert_string_equal(note_at(m, L(9))->rule, "reductions");
  pki_module_free(m);
}

static void test_links_need_plain_arguments(void **state) {
  (void)state;
  /* a call in an argument, a positional kernel argument, a lambda: no links */
  pki_module *m = plan("def main(n, x, y):\n"
                       "    pk.parallel_for(n, axpy, y=y, x=make(x), a=1.0)\n"
                       "    pk.parallel_for(n, scale, y=y, s=0.5)\n"
                       "    pk.parallel_for(n, scale, y, 0.5)\n"
                       "    pk.parallel_for(n, lambda i: pk.printf(\"%d\", i))\n"
                       "    pk.parallel_for(n, scale, y=y, s=0.5)\n");
  assert_int_equal(m->host_chains.n, 0);
  pki_module_free(m);
}

/* The fused parameter called name in g; fails if none. */
static int param_named(const pki_host_fused *g, const char *name) {
  for (int j = 0; j < g->nparams; j++)
    if (!strcmp(g->names[j], name))
      return j;
  fail_msg("no fused parameter %s", name);
  return -1;
}

static void test_stored_first_not_loaded(void **state) {
  (void)state;
  /* a resident element whose first touch over the links is a plain store is
   * not loaded; a conditional store, a store reading the element, a `+=` and
   * a read first are */
  pki_module *m = plan("@pk.workunit\n"
                       "def put(i: int, z: pk.View1D[pk.double], y: pk.View1D[pk.double]):\n"
                       "    z[i] = 2.0 * y[i]\n"
                       "@pk.workunit\n"
                       "def put_if(i: int, z: pk.View1D[pk.double], y: pk.View1D[pk.double]):\n"
                       "    if y[i] > 0.0:\n"
                       "        z[i] = 1.0\n"
                       "@pk.workunit\n"
                       "def put_self(i: int, z: pk.View1D[pk.double], y: pk.View1D[pk.double]):\n"
                       "    z[i] = z[i] + y[i]\n"
                       "def main(n, x, y, z, w, v):\n"
                       "    pk.parallel_for(n, put, z=z, y=y)\n"
                       "    pk.parallel_for(n, put_if, z=w, y=y)\n"
                       "    pk.parallel_for(n, put_self, z=x, y=z)\n"
                       "    pk.parallel_for(n, axpy, y=v, x=x, a=1.0)\n");
  assert_int_equal(m->fusion->host.n, 1);
  const pki_host_fused *g = group(m, 0);
  assert_int_equal(g->n, 4);
  assert_true(g->resident[param_named(g, "z")]);
  assert_true(g->stored_first[param_named(g, "z")]);
  assert_false(g->stored_first[param_named(g, "y")]); /* read first */
  assert_false(g->stored_first[param_named(g, "w")]); /* stored under an if */
  assert_false(g->stored_first[param_named(g, "x")]); /* the store reads it */
  assert_false(g->stored_first[param_named(g, "v")]); /* += */
  /* the query itself: put does not touch axpy's x at all */
  const pki_func *put = g->chain->launches[g->first].kernel;
  const pki_func *axpy = g->chain->launches[g->first + 3].kernel;
  assert_int_equal(pki_first_touch_of(put, put->params[0]), PKI_TOUCH_STORE);
  assert_int_equal(pki_first_touch_of(put, put->params[1]), PKI_TOUCH_OTHER);
  assert_int_equal(pki_first_touch_of(put, axpy->params[1]), PKI_TOUCH_NONE);
  pki_module_free(m);
}

static void test_scatter_flagged(void **state) {
  (void)state;
  /* a link writing through an index read from a View: fused, flagged (GPUs
   * only by default), and the note says so; a plain chain is not flagged */
  pki_module *m = plan("@pk.workunit\n"
                       "def gen(i: int, idx: pk.View1D[pk.int64], y: pk.View1D[pk.double]):\n"
                       "    idx[i] = (i * 5) % idx.extent(0)\n"
                       "    y[i] = 2.0 * i\n"
                       "@pk.workunit\n"
                       "def put(i: int, t: pk.View1D[pk.double], idx: pk.View1D[pk.int64],\n"
                       "        y: pk.View1D[pk.double]):\n"
                       "    t[idx[i]] = y[i]\n"
                       "def main(n, idx, y, t, x):\n"
                       "    pk.parallel_for(n, gen, idx=idx, y=y)\n"
                       "    pk.parallel_for(n, put, t=t, idx=idx, y=y)\n"
                       "    pk.fence()\n"
                       "    pk.parallel_for(n, axpy, y=y, x=x, a=2.0)\n"
                       "    pk.parallel_for(n, scale, y=y, s=0.5)\n");
  assert_int_equal(m->fusion->host.n, 2);
  assert_true(group(m, 0)->scatter);
  assert_non_null(strstr(group(m, 0)->why, "only with PKC_FUSION=all (it scatters)"));
  assert_false(group(m, 1)->scatter);
  assert_null(strstr(group(m, 1)->why, "scatters"));
  pki_module_free(m);
}

static void test_module_level_and_nested_blocks(void **state) {
  (void)state;
  pki_module *m = plan("n = 10\n"
                       "if __name__ == '__main__':\n"
                       "    x = pk.View([n], pk.double)\n"
                       "    y = pk.View([n], pk.double)\n"
                       "    with open('f') as f:\n"
                       "        pk.parallel_for(n, axpy, y=y, x=x, a=1.0)\n"
                       "        pk.parallel_for(n, scale, y=y, s=0.5)\n");
  assert_int_equal(m->host_chains.n, 1);
  assert_string_equal(PKI_AT(m->host_chains, 0, pki_host_chain)->where, "<module>");
  assert_int_equal(m->fusion->host.n, 1);
  pki_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_chain_argument_fusion),
      cmocka_unit_test(test_neighbour_read_refused),
      cmocka_unit_test(test_distinct_texts_are_distinct_views),
      cmocka_unit_test(test_repeated_loop),
      cmocka_unit_test(test_loop_variable_argument),
      cmocka_unit_test(test_reduction_ends_a_group),
      cmocka_unit_test(test_reductions_in_a_row),
      cmocka_unit_test(test_reductions_in_a_row_refused),
      cmocka_unit_test(test_links_need_plain_arguments),
      cmocka_unit_test(test_module_level_and_nested_blocks),
      cmocka_unit_test(test_stored_first_not_loaded),
      cmocka_unit_test(test_scatter_flagged),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
