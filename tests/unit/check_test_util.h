/*
 * check_test_util.h - fixture and diagnostic assertions shared by the
 * pki_check tests (test_check*.c). Include after <cmocka.h>; the IR is built
 * with ir_build.h (included here).
 */
#ifndef PKC_CHECK_TEST_UTIL_H
#define PKC_CHECK_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ir_build.h"

/* Per-test fixture: a fresh module (mk_module) and its diagnostics list. */
typedef struct fx {
  pki_module *m;
  pki_diags d;
} fx;

/* cmocka setup: allocates the fx into *state. */
static inline int setup(void **state) {
  fx *x = test_malloc(sizeof *x);
  x->m = mk_module();
  pki_diags_init(&x->d, x->m->arena, x->m->path, "", 0);
  *state = x;
  return 0;
}

/* cmocka teardown: frees the module and the fx. */
static inline int teardown(void **state) {
  fx *x = *state;
  pki_module_free(x->m);
  test_free(x);
  return 0;
}

/* Prints every diagnostic of d to stderr (line:col [code] message). */
static inline void dump_diags(const pki_diags *d) {
  for (int i = 0; i < d->n; i++)
    fprintf(stderr, "  diag %u:%u [%s] %s\n", d->items[i].span.line, d->items[i].span.col,
            d->items[i].code, d->items[i].message);
}

/* Asserts a diagnostic with exactly this message at line:col exists. */
static inline void expect_diag(const pki_diags *d, pki_severity sev, int line, int col,
                               const char *msg) {
  for (int i = 0; i < d->n; i++)
    if (d->items[i].severity == sev && d->items[i].span.line == (uint32_t)line &&
        d->items[i].span.col == (uint32_t)col && strcmp(d->items[i].message, msg) == 0)
      return;
  fprintf(stderr, "missing diag %d:%d %s\n", line, col, msg);
  dump_diags(d);
  fail();
}

/* An implicit-conversion warning at line:col whose message contains needle
 * (C++ conversions PyKokkos code relies on are accepted with a warning). */
static inline void expect_conv(const pki_diags *d, int line, int col, const char *needle) {
  for (int i = 0; i < d->n; i++)
    if (d->items[i].severity == PKI_SEV_WARNING && d->items[i].span.line == (uint32_t)line &&
        d->items[i].span.col == (uint32_t)col &&
        strcmp(d->items[i].code, "implicit-conversion") == 0 &&
        strstr(d->items[i].message, needle))
      return;
  fprintf(stderr, "missing implicit-conversion warning %d:%d %s\n", line, col, needle);
  dump_diags(d);
  fail();
}

/* expect_diag for an error. */
static inline void expect_err(const pki_diags *d, int line, int col, const char *msg) {
  expect_diag(d, PKI_SEV_ERROR, line, col, msg);
}

/* Runs pki_check on the fixture's module; returns its error count (dumping any). */
static inline int check_ok(fx *x) {
  int n = pki_check(x->m, &x->d);
  if (n)
    dump_diags(&x->d);
  return n;
}

#define F64 pki_float_type
#define I64 pki_int_type
#define KT(k) pki_scalar(PKI_##k)

/* Asserts e is a cast to `to` of an expression of kind `inner`. */
static inline void assert_cast_of(const pki_expr *e, pki_kind to, pki_expr_kind inner) {
  assert_non_null(e);
  assert_int_equal(e->kind, PKI_E_CAST);
  assert_int_equal(e->type.kind, to);
  assert_int_equal(e->args[0]->kind, inner);
}

#endif /* PKC_CHECK_TEST_UTIL_H */
