/*
 * test_naming.c - the C++ spelling of Python names (docs/NAMING.md): one
 * injective scheme for locals, parameters, members, module constants, entry
 * points, tags, and the loop-bound temporaries pkc adds. Candidates are
 * built to collide under a naive scheme (keyword + '_', '__' joins,
 * `<loopvar>_end`, non-ASCII letters).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "frontend_test_util.h"
#include "ir.h"
#include "pkb_priv.h"

static const char *const candidates[] = {
    "new", "new_", "new__", "new_0", "pku_new_0", "int", "int_", "class", "class_", "main",
    "printf", "NULL", "NULL_", "M_PI", "M_PI_", "INT64_MAX", "Kokkos", "pkc", "pkc_", "pku",
    "pku_", "a__b", "a_0_0b", "pku_a_0_0b", "__init__", "_Foo", "_Foo_", "x_", "x__", "_x", "_",
    "__", "i", "i_end", "pkc_end_i", "pkc_end_i_", "pkc_i", "pkc_fused0_end", "pkc_step_i",
    "pku_x_e9x", "x\xc3\xa9", "x_e9x", "\xc3\xb1" "and\xc3\xba", "_f1xand_fax", "\xc3\xa9",
    "\xe2\x84\x96", "\xf0\x9d\x91\xa5", "self", "std", "end", "e9x", "_e9x"};
#define NCAND (sizeof candidates / sizeof *candidates)

static const char *const cxx_words[] = {"new", "int", "class", "main", "printf", "NULL",
                                        "M_PI", "INT64_MAX", "Kokkos", "pkc", "std"};

static bool valid_cxx_ident(const char *s) {
  if (!s[0] || (s[0] >= '0' && s[0] <= '9'))
    return false;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '_'))
      return false;
  return true;
}

/* Distinct Python names give distinct, valid, unreserved C++ names, none in
 * the generated namespace (`pkc_...`) and none with '__'. */
static void test_ident_injective(void **state) {
  (void)state;
  pki_arena *a = pki_arena_new();
  const char *out[NCAND];
  for (size_t i = 0; i < NCAND; i++) {
    out[i] = pkb_ident(a, candidates[i]);
    assert_true(valid_cxx_ident(out[i]));
    assert_null(strstr(out[i], "__"));
    assert_true(strncmp(out[i], "pkc_", 4) != 0);
    for (size_t k = 0; k < sizeof cxx_words / sizeof *cxx_words; k++)
      assert_string_not_equal(out[i], cxx_words[k]);
    for (size_t j = 0; j < i; j++)
      if (!strcmp(out[i], out[j]))
        fail_msg("'%s' and '%s' are both spelled '%s'", candidates[j], candidates[i], out[i]);
  }
  /* plain names read as written */
  assert_string_equal(pkb_ident(a, "i_end"), "i_end");
  assert_string_equal(pkb_ident(a, "new"), "new_");
  pki_arena_free(a);
}

static const char *const src =
    "import pykokkos as pk\n"
    "new = 3\n"
    "@pk.workunit\n"
    "def k(i: int, out: pk.View1D[pk.double]):\n"
    "    new_: float = 2.0\n"
    "    for j in range(out.extent(0) - i):\n"
    "        pkc_end_j: float = new_ + new\n"
    "        out[i] = pkc_end_j\n"
    "@pk.workload\n"
    "class A__b:\n"
    "    def __init__(self, v: pk.View1D[pk.double]):\n"
    "        self.v: pk.View1D[pk.double] = v\n"
    "        self.j_end: int = 1\n"
    "    @pk.main\n"
    "    def c(self):\n"
    "        pk.parallel_for(1, self.w)\n"
    "    @pk.workunit\n"
    "    def w(self, i: int):\n"
    "        for j in range(self.v.extent(0) - i):\n"
    "            self.v[j] = self.j_end\n"
    "@pk.workload\n"
    "class A:\n"
    "    def __init__(self, v: pk.View1D[pk.double]):\n"
    "        self.v: pk.View1D[pk.double] = v\n"
    "    @pk.main\n"
    "    def b__c(self):\n"
    "        pk.parallel_for(1, self.w)\n"
    "    @pk.workunit\n"
    "    def w(self, i: int):\n"
    "        self.v[0] = 1.0\n";

/* Entry points, tags and @pk.main host functions of colliding class and
 * method names are distinct; loop temporaries, members, locals and module
 * constants keep apart in the generated C++. */
static void test_generated_names(void **state) {
  (void)state;
  pki_module *m = lower_ok(src);
  pki_diags d = {.arena = m->arena};
  assert_int_equal(pki_check(m, &d), 0);
  pki_arena *a = m->arena;
  const char *wrap[16], *tag[16], *mains[16];
  int n = 0;
  for (int i = 0; i < m->nentities; i++)
    for (int j = 0; j < m->entities[i]->nfuncs && n < 16; j++, n++) {
      const pki_func *f = m->entities[i]->funcs[j];
      wrap[n] = pkb_wrapper_name(a, m, f);
      tag[n] = pkb_tag_name(a, f);
      mains[n] = pkb_main_name(a, f);
      assert_true(valid_cxx_ident(wrap[n]));
      for (int k = 0; k < n; k++)
        assert_string_not_equal(wrap[k], wrap[n]);
    }
  assert_int_equal(n, 5);
  assert_string_not_equal(mains[1], mains[3]); /* A__b.c and A.b__c */
  assert_string_not_equal(tag[1], tag[2]);
  assert_string_not_equal(tag[3], tag[4]);
  pkb_options o = {.outdir = "t.pk", .backend = "openmp", .pkc_version = "test"};
  pkb_texts t;
  pkb_texts_make(m, &o, &t);
  const char *cpp = t.cpp.data;
  assert_non_null(strstr(cpp, "constexpr int64_t new_ = 3;"));
  assert_non_null(strstr(cpp, "double pku_new_0 = 2.0;"));
  assert_non_null(strstr(cpp, "pkc_end_j = "));           /* the loop temporary */
  assert_non_null(strstr(cpp, "double pku_pkc_0end_0j = ")); /* the user's local */
  assert_non_null(strstr(cpp, "int64_t j_end;"));        /* the member */
  assert_null(strstr(cpp, " j_end = "));                 /* no temporary hides it */
  pkb_texts_free(&t);
  pki_module_free(m);
}

/* Module names (the .so and the namespace): the rule the shim's
 * _loader.module_name mirrors. */
static void test_module_name(void **state) {
  (void)state;
  pki_arena *a = pki_arena_new();
  assert_string_equal(pki_module_name(a, "d/01.py"), "m_01");
  assert_string_equal(pki_module_name(a, "my-app.py"), "my_app");
  assert_string_equal(pki_module_name(a, "/x/\xc3\xb1" "and\xc3\xba.py"), "u00f1andu00fa");
  assert_string_equal(pki_module_name(a, "\xf0\x9d\x91\xa5.v2.py"), "u1d465");
  assert_string_equal(pki_module_name(a, "a\xff\xc3" "b.py"), "a__b"); /* not UTF-8: '_' per byte */
  assert_string_equal(pki_module_name(a, ".py"), "_py");
  pki_arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_module_name),
      cmocka_unit_test(test_ident_injective),
      cmocka_unit_test(test_generated_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
