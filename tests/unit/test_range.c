/* test_range.c - RangePolicy kernels (issue 24): which parallel_for kernels
 * ir/range.c finds writing only their own elements (and which are plain
 * copies), the launch the backend writes for them, that g++ vectorizes a
 * gather's block loop on host backends, and pkc::impl::block_of's blocks;
 * which sums run as pkc::range_parallel_reduce / pkc::team_thread_reduce
 * (pki_acc_only_summed), and that g++ vectorizes their partial sums. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define EMIT_TMP_TEMPLATE "/tmp/pkc_test_range_XXXXXX"
#include "access.h"
#include "emit_test_util.h"
#include "frontend_test_util.h"

#define HEAD "import pykokkos as pk\n@pk.workunit\n"
#define GATHER                                                                            \
  HEAD "def gather(i: int, x: pk.View1D[pk.double], idx: pk.View1D[pk.int64], "           \
       "y: pk.View1D[pk.double]):\n"                                                      \
       "    y[i] = x[idx[i]]\n"
#define COPY HEAD "def copy(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):\n    c[i] = a[i]\n"

/* The planned module of src (checked, no errors); *f its first workunit. */
static pki_module *planned(const char *src, const pki_func **f) {
  pki_module *m = checked_first_workunit(src, f);
  pki_extent_plan_module(m);
  pki_range_plan_module(m);
  assert_true((*f)->range_planned);
  return m;
}

static const char *var_name(const pki_vec *v, int i) { return PKI_AT(*v, i, pki_var)->name; }

static void test_gather_writes_own_elements(void **state) {
  (void)state;
  const pki_func *f;
  pki_module *m = planned(GATHER, &f);
  assert_true(f->range_own);
  assert_int_equal(f->range_written.n, 1);
  assert_string_equal(var_name(&f->range_written, 0), "y");
  assert_int_equal(f->range_others.n, 2);
  assert_null(f->range_copy_dst); /* x[idx[i]] is no copy */
  pki_module_free(m);
}

static void test_copy_found(void **state) {
  (void)state;
  const pki_func *f;
  pki_module *m = planned(COPY, &f);
  assert_true(f->range_own);
  assert_non_null(f->range_copy_dst);
  assert_string_equal(f->range_copy_dst->name, "c");
  assert_string_equal(f->range_copy_src->name, "a");
  pki_module_free(m);
  /* a conversion, a scaled value or another index is no copy */
  const char *not_copies[] = {
      HEAD "def k(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.float]):\n    c[i] = a[i]\n",
      HEAD "def k(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):\n    c[i] = 2.0 * a[i]\n",
      HEAD "def k(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):\n    c[i] = a[i + 1]\n",
      HEAD "def k(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):\n"
           "    c[i] = a[i]\n    a[i] = 0.0\n",
  };
  for (size_t k = 0; k < sizeof not_copies / sizeof *not_copies; k++) {
    m = planned(not_copies[k], &f);
    assert_true(f->range_own);
    assert_null(f->range_copy_dst);
    pki_module_free(m);
  }
}

static void test_other_elements_keep_kokkos(void **state) {
  (void)state;
  /* each writes (or reads what it writes) at another work item's element,
   * or updates atomically: Kokkos::parallel_for as written */
  const char *srcs[] = {
      HEAD "def k(i: int, y: pk.View1D[pk.double]):\n    y[i] = y[i - 1]\n",
      HEAD "def k(i: int, y: pk.View1D[pk.double]):\n    y[i + 1] = 1.0\n",
      HEAD "def k(i: int, y: pk.View1D[pk.double], idx: pk.View1D[pk.int32]):\n"
           "    y[idx[i]] = 1.0  # pkc: allow possible-race\n",
      HEAD "def k(i: int, h: pk.View1D[pk.int64], idx: pk.View1D[pk.int32]):\n"
           "    pk.atomic_add(h, [idx[i]], 1)\n",
      HEAD "def k(i: int, A: pk.View2D[pk.double]):\n    A[i][0] = A[5][i]\n",
  };
  for (size_t k = 0; k < sizeof srcs / sizeof *srcs; k++) {
    const pki_func *f;
    pki_module *m = planned(srcs[k], &f);
    if (f->range_own)
      fail_msg("planned as own-element writes:\n%s", srcs[k]);
    pki_module_free(m);
  }
  /* a column or a row of a 2-D View per work item, read and written: its own */
  const pki_func *f;
  pki_module *m = planned(HEAD "def k(i: int, A: pk.View2D[pk.double]):\n    A[0][i] = A[1][i]\n", &f);
  assert_true(f->range_own);
  pki_module_free(m);
  m = planned(HEAD "def k(i: int, A: pk.View2D[pk.double], n: int):\n"
                               "    for j in range(1, n):\n"
                               "        A[i][j] += A[i][j - 1]\n",
                          &f);
  assert_true(f->range_own);
  pki_module_free(m);
}

static void test_launch_text(void **state) {
  (void)state;
  const pki_func *f;
  pki_module *m = planned(GATHER, &f);
  char *cpp = emitted(m, "gather", "t.cpp");
  assert_non_null(cpp);
  HAS(cpp, "pkc::range_parallel_for(kernel, pkc::RangePolicy<");
  HAS(cpp, ">(begin, end), f, pkc::apart(f.y, f.x, f.idx));");
  free(cpp);
  pki_module_free(m);
  m = planned(COPY, &f);
  cpp = emitted(m, "copy", "t.cpp");
  assert_non_null(cpp);
  HAS(cpp, "pkc::range_copy(kernel, pkc::RangePolicy<");
  HAS(cpp, ">(begin, end), f, f.c, f.a, pkc::apart(f.c, f.a));");
  free(cpp);
  pki_module_free(m);
}

/* Emits m into tmpdir/sub, checks that g++ vectorizes the loop `after` lines
 * below `marker` in its pkc_dialect.hpp, and frees m. */
static void emitted_loop_vectorized(pki_module *m, const char *sub, const char *marker, int after) {
  free(emitted(m, sub, "t.cpp"));
  char dir[400];
  snprintf(dir, sizeof dir, "%s/%s", tmpdir, sub);
  assert_loop_vectorized(dir, marker, after);
  pki_module_free(m);
}

static void test_gather_block_loop_vectorized(void **state) {
  (void)state;
  if (!have_kokkos())
    skip();
  const pki_func *f;
  /* the marker, PKC_IVDEP, then the loop */
  emitted_loop_vectorized(planned(GATHER, &f), "vec", "the block loop of a RangePolicy parallel_for",
                          2);
}

#define DOT                                                                               \
  HEAD "def dot(i: int, acc: pk.Acc[pk.double], a: pk.View1D[pk.double], "                \
       "b: pk.View1D[pk.double]):\n"                                                      \
       "    acc += a[i] * b[i]\n"

/* The launch (or nested call) the backend writes for the first workunit of src. */
static char *sum_text(const char *src, const char *dir) {
  const pki_func *f;
  pki_module *m = checked_first_workunit(src, &f);
  char *cpp = emitted(m, dir, "t.cpp");
  assert_non_null(cpp);
  pki_module_free(m);
  return cpp;
}

static void test_sum_launch_text(void **state) {
  (void)state;
  char *cpp = sum_text(DOT, "dot");
  HAS(cpp, "pkc::range_parallel_reduce(kernel, pkc::RangePolicy<pkc_t::dot::dot_tag>(begin, end), "
           "f, value);");
  free(cpp);
  cpp = sum_text(HEAD "def k(i: int, acc: pk.Acc[pk.int64], a: pk.View1D[pk.int64]):\n"
                      "    if a[i] > 0:\n        acc -= a[i]\n",
                 "minus");
  HAS(cpp, "pkc::range_parallel_reduce(kernel, ");
  free(cpp);
  cpp = sum_text(HEAD "def k(i: int, j: int, acc: pk.Acc[pk.double], A: pk.View2D[pk.double]):\n"
                      "    acc += A[i][j]\n",
                 "md");
  HAS(cpp, "pkc::md_parallel_sum<pkc::md_rows, 1, 0>(kernel, pkc::MDRangePolicy<2, ");
  free(cpp);
  cpp = sum_text(HEAD "def k(i: int, j: int, acc: pk.Acc[pk.double], A: pk.View2D[pk.double]):\n"
                      "    A[i][j] = acc\n    acc += 1.0\n",
                 "md_read");
  HAS(cpp, "pkc::md_parallel_reduce<pkc::md_rows, 1, 0>(kernel, pkc::MDRangePolicy<2, ");
  free(cpp);
  /* an accumulator read (a running index), or another reducer:
   * Kokkos::parallel_reduce, one sequence per thread as written (pki_check
   * allows a sum's accumulator only += and -=) */
  const char *kokkos[] = {
      HEAD "def k(i: int, acc: pk.Acc[pk.double], out: pk.View1D[pk.double]):\n"
           "    out[i] = acc\n    acc += 1.0\n",
      HEAD "def k(i: int, acc: pk.Acc[pk.int64], out: pk.View1D[pk.int64]):\n"
           "    for k in range(4):\n        out[acc] = i\n        acc += 1\n",
      HEAD "def k(i: int, acc: pk.Max[pk.double], a: pk.View1D[pk.double]):\n"
           "    acc = max(acc, a[i])\n",
      HEAD "def k(i: int, acc: pk.Prod[pk.double], a: pk.View1D[pk.double]):\n"
           "    acc *= a[i]\n",
  };
  for (size_t k = 0; k < sizeof kokkos / sizeof *kokkos; k++) {
    cpp = sum_text(kokkos[k], "kokkos");
    if (strstr(cpp, "pkc::range_parallel_reduce"))
      fail_msg("summed in partial sums:\n%s", kokkos[k]);
    HAS(cpp, "Kokkos::parallel_reduce(kernel, ");
    free(cpp);
  }
  /* a TeamThreadRange sum, and one whose accumulator is read */
  const char *team = HEAD "def k(m: pk.TeamMember, acc: pk.Acc[pk.double], M: int, "
                          "A: pk.View2D[pk.double]):\n"
                          "    j: int = m.league_rank()\n"
                          "    def inner(i: int, a: pk.Acc[pk.double]):\n"
                          "        a += A[j][i]\n"
                          "    s: float = pk.parallel_reduce(pk.TeamThreadRange(m, 2, M), inner)\n"
                          "    acc += s\n";
  cpp = sum_text(team, "team");
  HAS(cpp, "pkc::team_thread_reduce(m, 2, M, [&](const int64_t i, double &a) {");
  free(cpp);
  const char *team_read = HEAD "def k(m: pk.TeamMember, acc: pk.Acc[pk.double], M: int, "
                               "A: pk.View2D[pk.double]):\n"
                               "    j: int = m.league_rank()\n"
                               "    def inner(i: int, a: pk.Acc[pk.double]):\n"
                               "        a += A[j][i] if a < 10.0 else 0.0\n"
                               "    s: float = pk.parallel_reduce(pk.TeamThreadRange(m, M), inner)\n"
                               "    acc += s\n";
  cpp = sum_text(team_read, "team_read");
  HAS(cpp, "Kokkos::parallel_reduce(Kokkos::TeamThreadRange(m, M), [&](const int64_t i, double &a) {");
  free(cpp);
}

static void test_sum_loop_vectorized(void **state) {
  (void)state;
  if (!have_kokkos())
    skip();
  const pki_func *f;
  emitted_loop_vectorized(checked_first_workunit(DOT, &f), "sumvec", "the partial sums' loop", 1);
}

/* pkc::impl::block_of cuts [b, e) into equal blocks that cover it once, and
 * pkc::apart finds overlaps; compiled and run on the host. */
static void test_blocks_and_apart(void **state) {
  (void)state;
  if (!have_kokkos())
    skip();
  const pki_func *f;
  pki_module *m = planned(COPY, &f);
  free(emitted(m, "blocks", "t.cpp"));
  char dir[400];
  snprintf(dir, sizeof dir, "%s/blocks", tmpdir);
  char *got = run_host_program(dir, "blocks", "#include \"pkc_kokkos.hpp\"\n"
        "int main() {\n"
        "  const int64_t cases[][3] = {{0, 10, 4}, {5, 6, 3}, {3, 3, 2}, {-2, 7, 1}, {0, 100, 16}};\n"
        "  for (auto &c : cases) {\n"
        "    std::printf(\"[%lld, %lld) / %lld:\", (long long)c[0], (long long)c[1], (long long)c[2]);\n"
        "    for (int64_t t = 0; t < c[2]; t++) {\n"
        "      int64_t lo, hi;\n"
        "      pkc::impl::block_of(c[0], c[1], t, c[2], lo, hi);\n"
        "      if (c[2] <= 4) std::printf(\" %lld-%lld\", (long long)lo, (long long)hi);\n"
        "      else if (hi - lo != (t < 4 ? 7 : 6)) std::printf(\" bad %lld\", (long long)t);\n"
        "    }\n"
        "    std::printf(\"\\n\");\n"
        "  }\n"
        "  double buf[10];\n"
        "  Kokkos::View<double *, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>\n"
        "      a(buf, 5), b(buf + 5, 5), c(buf + 4, 2), none(buf, 0);\n"
        "  Kokkos::View<int *, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>\n"
        "      ia(reinterpret_cast<int *>(buf + 4), 3);\n"
        "  std::printf(\"apart %d %d %d %d %d %d\\n\", pkc::apart(a, b), pkc::apart(a, c),\n"
        "              pkc::apart(b, c), pkc::apart(a, none), pkc::apart(a, b, c), pkc::apart(b, ia));\n"
        "}\n");
  assert_string_equal(got, "[0, 10) / 4: 0-3 3-6 6-8 8-10\n"
                           "[5, 6) / 3: 5-6 6-6 6-6\n"
                           "[3, 3) / 2: 3-3 3-3\n"
                           "[-2, 7) / 1: -2-7\n"
                           "[0, 100) / 16:\n" /* 4 blocks of 7, 12 of 6 */
                           "apart 1 0 0 1 0 0\n");
  free(got);
  pki_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gather_writes_own_elements),
      cmocka_unit_test(test_copy_found),
      cmocka_unit_test(test_other_elements_keep_kokkos),
      cmocka_unit_test(test_launch_text),
      cmocka_unit_test(test_gather_block_loop_vectorized),
      cmocka_unit_test(test_blocks_and_apart),
      cmocka_unit_test(test_sum_launch_text),
      cmocka_unit_test(test_sum_loop_vectorized),
  };
  return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
