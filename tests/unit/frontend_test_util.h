/*
 * frontend_test_util.h - lowering helpers shared by the frontend tests
 * (test_frontend*.c): Python source -> pki_module via pkf_lower, with the
 * diagnostics in a caller-owned list. Include after <cmocka.h>.
 */
#ifndef PKC_FRONTEND_TEST_UTIL_H
#define PKC_FRONTEND_TEST_UTIL_H

#include <string.h>

#include "frontend.h"

/* Lowers src as file "t.py" into a new module (caller frees); *d gets the diagnostics. */
static inline pki_module *lower_quiet(const char *src, pki_diags *d) {
  memset(d, 0, sizeof *d);
  return pkf_lower("t.py", src, strlen(src), d);
}

/* lower_quiet, then prints every diagnostic (line:col: message) with print_error. */
static inline pki_module *lower(const char *src, pki_diags *d) {
  pki_module *m = lower_quiet(src, d);
  for (int i = 0; i < d->n; i++)
    print_error("  diag %u:%u: %s\n", d->items[i].span.line, d->items[i].span.col,
                d->items[i].message);
  return m;
}

/* Lowers src and asserts it gives no diagnostics; returns the module (caller frees). */
static inline pki_module *lower_ok(const char *src) {
  pki_diags d;
  pki_module *m = lower(src, &d);
  assert_int_equal(d.n, 0);
  return m;
}

/* Lowers and checks src, asserting no errors; *f gets its first workunit
 * (entities in order; a classtype has none). Returns the module (caller frees). */
static inline pki_module *checked_first_workunit(const char *src, const pki_func **f) {
  pki_diags d;
  pki_module *m = lower(src, &d);
  assert_non_null(m);
  assert_int_equal(d.errors + pki_check(m, &d), 0);
  *f = NULL;
  for (int e = 0; e < m->nentities && !*f; e++)
    for (int k = 0; k < m->entities[e]->nfuncs && !*f; k++)
      if (m->entities[e]->funcs[k]->is_workunit)
        *f = m->entities[e]->funcs[k];
  assert_non_null(*f);
  return m;
}

/* The entity of m called `name`; fails the test if there is none. */
static inline pki_entity *entity(pki_module *m, const char *name) {
  for (int i = 0; i < m->nentities; i++)
    if (!strcmp(m->entities[i]->name, name))
      return m->entities[i];
  fail_msg("no entity %s", name);
  return NULL;
}

#endif /* PKC_FRONTEND_TEST_UTIL_H */
