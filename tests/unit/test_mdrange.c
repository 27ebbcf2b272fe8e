/* test_mdrange.c - MDRange kernels on host backends and GPUs (issue 24):
 * the contiguous work index and the host scheme found by ir/mdrange.c, the
 * launch the backend writes from them, and that g++ vectorizes the row loop
 * of a 2-D stencil's host launch (-fopt-info-vec-optimized). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define EMIT_TMP_TEMPLATE "/tmp/pkc_test_mdrange_XXXXXX"
#include "access.h"
#include "emit_test_util.h"
#include "frontend_test_util.h"

#define HEAD "import pykokkos as pk\n@pk.workunit\n"
#define STENCIL                                                                         \
  HEAD "def st(i: int, j: int, a: pk.View2D[pk.double], b: pk.View2D[pk.double]):\n"    \
       "    b[i][j] = 0.5 * a[i][j] + 0.125 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + " \
       "a[i][j + 1])\n"                                                                 \
       "def run(a, b, n):\n"                                                            \
       "    pk.parallel_for(pk.MDRangePolicy([1, 1], [n - 1, n - 1]), st, a=a, b=b)\n"

/* The planned module of src (checked, no errors); *f its first workunit. */
static pki_module *planned(const char *src, const pki_func **f) {
  pki_module *m = checked_first_workunit(src, f);
  pki_extent_plan_module(m);
  pki_mdrange_plan_module(m);
  pki_range_plan_module(m);
  assert_true((*f)->md_planned);
  return m;
}

/* A kernel over Views of classtype S (one float field a), d written. */
#define CLASS_HEAD                                                                         \
  "import pykokkos as pk\n"                                                                \
  "@pk.classtype\n"                                                                        \
  "class S:\n"                                                                             \
  "    def __init__(self, a: float):\n"                                                    \
  "        self.a: float = a\n"                                                            \
  "@pk.function\n"                                                                         \
  "def bump(q: S):\n"                                                                      \
  "    q.a += 1.0\n"                                                                       \
  "@pk.function\n"                                                                         \
  "def twice(q: S) -> float:\n"                                                            \
  "    return 2.0 * q.a\n"                                                                 \
  "@pk.workunit\n"                                                                         \
  "def c(i: int, j: int, u: pk.View2D[S], d: pk.View2D[S]):\n"

#define CLASS_RUN                                                                          \
  "def run(u, d, n):\n"                                                                    \
  "    pk.parallel_for(pk.MDRangePolicy([1, 1], [n - 1, n - 1]), c, u=u, d=d)\n"

/* Each point writes only its own elements along the rows (ir/range.c): the
 * launch checks the Views apart and marks the row loops so. */
static void test_rows_own_writes(void **state) {
  (void)state;
  const pki_func *f;
  pki_module *m = planned(STENCIL, &f);
  assert_true(f->range_planned);
  assert_true(f->range_own);
  char *cpp = emitted(m, "own", "t.cpp");
  HAS(cpp, "pkc::md_parallel_for<pkc::md_rows, 1, 0>(kernel, pkc::MDRangePolicy<2, ");
  HAS(cpp, ", f, pkc::apart(f.b, f.a), policy->gate);");
  free(cpp);
  pki_module_free(m);
  /* Views of classtype values: an element read whole, passed to a function
   * that only reads it, and a field written */
  m = planned(CLASS_HEAD "    d[i, j].a = twice(u[i, j - 1]) + u[i, j + 1].a\n"
                         "    q: S = u[i, j]\n"
                         "    d[i, j].a += q.a\n" CLASS_RUN,
              &f);
  assert_true(f->range_own);
  cpp = emitted(m, "own_class", "t.cpp");
  HAS(cpp, ", f, pkc::apart(f.d, f.u), policy->gate);");
  free(cpp);
  pki_module_free(m);
}

/* Points that share an element of a View written along the rows keep the
 * plain row loop (no apart at the launch). */
static void test_rows_shared_writes(void **state) {
  (void)state;
  static const char *const srcs[] = {
      /* b read at j - 1, written at j */
      HEAD "def st(i: int, j: int, a: pk.View2D[pk.double], b: pk.View2D[pk.double]):\n"
           "    b[i][j] = b[i][j - 1] + a[i][j]\n"
           "def run(a, b, n):\n"
           "    pk.parallel_for(pk.MDRangePolicy([1, 1], [n, n]), st, a=a, b=b)\n",
      /* written one element to the right */
      HEAD "def st(i: int, j: int, a: pk.View2D[pk.double], b: pk.View2D[pk.double]):\n"
           "    b[i][j + 1] = a[i][j]\n"
           "def run(a, b, n):\n"
           "    pk.parallel_for(pk.MDRangePolicy([1, 1], [n, n]), st, a=a, b=b)\n",
      /* a classtype element one to the left changed through a function */
      CLASS_HEAD "    bump(d[i, j - 1])\n" CLASS_RUN,
      /* ... through a field assignment */
      CLASS_HEAD "    d[i, j - 1].a = u[i, j].a\n" CLASS_RUN,
  };
  for (size_t k = 0; k < sizeof srcs / sizeof *srcs; k++) {
    const pki_func *f;
    pki_module *m = planned(srcs[k], &f);
    assert_true(f->md_rows);
    if (f->range_own)
      fail_msg("source %zu: planned as writing its own elements", k);
    char *cpp = emitted(m, "shared", "t.cpp");
    if (strstr(cpp, "pkc::apart("))
      fail_msg("source %zu: the launch checks Views apart", k);
    free(cpp);
    pki_module_free(m);
  }
}

static void test_stencil_rows_along_last_index(void **state) {
  (void)state;
  const pki_func *f;
  pki_module *m = planned(STENCIL, &f);
  assert_int_equal(f->md_contiguous[0], 1); /* LayoutRight: j */
  assert_int_equal(f->md_contiguous[1], 0); /* LayoutLeft: i */
  assert_true(f->md_rows);
  pki_module_free(m);
}

static void test_transpose_keeps_tiles(void **state) {
  (void)state;
  const pki_func *f;
  pki_module *m = planned(HEAD "def t(i: int, j: int, A: pk.View2D[pk.double], "
                               "B: pk.View2D[pk.double]):\n"
                               "    B[i][j] += A[j][i]\n"
                               "def run(A, B, n):\n"
                               "    pk.parallel_for(pk.MDRangePolicy([0, 0], [n, n]), t, A=A, B=B)\n",
                          &f);
  assert_false(f->md_rows); /* rows along either index read one View strided */
  pki_module_free(m);
}

static void test_3d_votes_and_layout_left(void **state) {
  (void)state;
  const pki_func *f;
  /* u is written at [k][j][i]: k is contiguous under LayoutLeft, i under LayoutRight */
  pki_module *m = planned(HEAD "def k3(i: int, j: int, k: int, u: pk.View3D[pk.double], "
                               "s: pk.View1D[pk.double]):\n"
                               "    u[k][j][i] = s[i]\n"
                               "def run(u, s, n):\n"
                               "    pk.parallel_for(pk.MDRangePolicy([0, 0, 0], [n, n, n]), k3, u=u, s=s)\n",
                          &f);
  assert_int_equal(f->md_contiguous[0], 0);
  assert_int_equal(f->md_contiguous[1], 2);
  assert_true(f->md_rows); /* rows along i: u[k][j][i] and s[i] are contiguous */
  pki_module_free(m);
  m = planned("import pykokkos as pk\n"
              "@pk.workunit(A=pk.ViewTypeInfo(layout=pk.LayoutLeft))\n"
              "def l(i: int, j: int, A: pk.View2D[pk.double]):\n"
              "    A[i][j] = 1.0\n"
              "def run(A, n):\n"
              "    pk.parallel_for(pk.MDRangePolicy([0, 0], [n, n]), l, A=A)\n",
              &f);
  assert_int_equal(f->md_contiguous[0], 0); /* an explicit LayoutLeft View: i on every backend */
  assert_int_equal(f->md_contiguous[1], 0);
  assert_true(f->md_rows);
  pki_module_free(m);
}

static void test_class_views_are_c_order_on_gpus(void **state) {
  (void)state;
  const pki_func *f;
  /* a View of classtype values is C order in both layouts on every backend
   * (emit_classview.c: AoS a LayoutRight View of structs, SoA LayoutRight
   * Views per field): j is contiguous on GPUs too, not the LayoutLeft i */
  pki_module *m = planned("import pykokkos as pk\n"
                          "@pk.classtype\n"
                          "class S:\n"
                          "    def __init__(self, a: float):\n"
                          "        self.a: float = a\n"
                          "@pk.workunit\n"
                          "def c(i: int, j: int, u: pk.View2D[S], d: pk.View2D[S]):\n"
                          "    d[i, j].a = u[i, j - 1].a + u[i, j + 1].a\n"
                          "def run(u, d, n):\n"
                          "    pk.parallel_for(pk.MDRangePolicy([1, 1], [n - 1, n - 1]), c, u=u, d=d)\n",
                          &f);
  assert_int_equal(f->md_contiguous[0], 1);
  assert_int_equal(f->md_contiguous[1], 1);
  assert_true(f->md_rows);
  pki_module_free(m);
}

static void test_launch_text(void **state) {
  (void)state;
  const pki_func *f;
  pki_module *m = planned(STENCIL, &f);
  char *cpp = emitted(m, "text", "t.cpp");
  assert_non_null(cpp);
  HAS(cpp, "pkc::md_parallel_for<pkc::md_rows, 1, 0>(kernel, pkc::MDRangePolicy<2, ");
  free(cpp);
  pki_module_free(m);
}

static void test_stencil_row_loop_vectorized(void **state) {
  (void)state;
  if (!have_kokkos())
    skip();
  const pki_func *f;
  pki_module *m = planned(STENCIL, &f);
  char out[400], err[512];
  snprintf(out, sizeof out, "%s/vec", tmpdir);
  pkb_options o = opts(out);
  assert_int_equal(pkb_emit(m, &o, err, sizeof err), 0);
  assert_loop_vectorized(out, "the row loop of a 2-D parallel_for over Views apart", 2);
  pki_module_free(m);
}

/* The output of host program `source`, compiled beside the module of the
 * stencil kernel that pkb_emit writes into tmpdir/sub (its pkc_kokkos.hpp and
 * pkc_dialect.hpp), then run. */
static char *stencil_module_program(const char *sub, const char *source) {
  const pki_func *f;
  pki_module *m = planned(STENCIL, &f);
  free(emitted(m, sub, "t.cpp"));
  pki_module_free(m);
  char dir[400];
  snprintf(dir, sizeof dir, "%s/%s", tmpdir, sub);
  return run_host_program(dir, sub, source);
}

/* pkc::default_tile (pkc_dialect.hpp), the GPU tile of a policy without one:
 * 256 threads, the warp (Kokkos' threadIdx.x is index 0) along the contiguous
 * index, within a CUDA block's 1024 threads and Kokkos 4's 512; and
 * pkc::impl::fit_tile, which fits it to the policy's extents. Compiled
 * and run on the host (the choice is the same code on every backend). */
static void test_default_gpu_tiles(void **state) {
  (void)state;
  if (!have_kokkos())
    skip();
  char *got = stencil_module_program("tile", "#include \"pkc_kokkos.hpp\"\n"
        "int main() {\n"
        "  for (int c = 0; c < 2; c++) {\n"
        "    auto t = pkc::default_tile<2>(c);\n"
        "    std::printf(\"2-D %d: %lld %lld\\n\", c, (long long)t[0], (long long)t[1]);\n"
        "  }\n"
        "  for (int c = 0; c < 3; c++) {\n"
        "    auto t = pkc::default_tile<3>(c);\n"
        "    std::printf(\"3-D %d: %lld %lld %lld\\n\", c, (long long)t[0], (long long)t[1],\n"
        "                (long long)t[2]);\n"
        "  }\n"
        "  auto t = pkc::default_tile<4>(0);\n"
        "  std::printf(\"4-D: %lld %lld %lld %lld\\n\", (long long)t[0], (long long)t[1],\n"
        "              (long long)t[2], (long long)t[3]);\n"
        "  const int64_t e3[4][3] = {{1, 512, 512}, {512, 512, 1}, {512, 512, 512}, {3, 5, 2}};\n"
        "  const int c3[4] = {0, 0, 2, 0};\n"
        "  for (int n = 0; n < 4; n++) {\n"
        "    auto f = pkc::default_tile<3>(c3[n]);\n"
        "    pkc::impl::fit_tile<3>(f, e3[n], c3[n]);\n"
        "    std::printf(\"fit %d: %lld %lld %lld\\n\", n, (long long)f[0], (long long)f[1],\n"
        "                (long long)f[2]);\n"
        "  }\n"
        "  const int64_t e2[2] = {1, 4096};\n"
        "  auto g = pkc::default_tile<2>(0);\n"
        "  pkc::impl::fit_tile<2>(g, e2, 0);\n"
        "  std::printf(\"fit 2-D: %lld %lld\\n\", (long long)g[0], (long long)g[1]);\n"
        "}\n");
  assert_string_equal(got, "2-D 0: 32 8\n"     /* LayoutLeft (CUDA's default): i contiguous */
                           "2-D 1: 2 128\n"    /* LayoutRight Views on a GPU: j */
                           "3-D 0: 32 4 2\n"
                           "3-D 1: 1 32 8\n"
                           "3-D 2: 1 2 128\n"
                           "4-D: 0 0 0 0\n"  /* ranks 4-6: Kokkos' own */
                           /* fitted to the extents: a face one cell thick along the
                            * contiguous index gives its threads to the next index */
                           "fit 0: 1 128 2\n"
                           "fit 1: 64 4 1\n"
                           "fit 2: 1 4 64\n"  /* threadIdx.z holds at most 64 */
                           "fit 3: 4 8 2\n"   /* a box smaller than a tile: powers of two */
                           "fit 2-D: 1 256\n");
  free(got);
}

/* pkc::impl::flat_point (GPU MDRange launches with no tile given, run over
 * the flattened box): consecutive k walk the contiguous index first, then
 * the others in the View's memory order (index 0 contiguous: 1, then 2;
 * index 2 contiguous: 1, then 0), and the points of a box with a lower
 * corner are each visited once, with 32-bit and 64-bit index arithmetic.
 * Compiled and run on the host. */
static void test_flat_reduction_points(void **state) {
  (void)state;
  if (!have_kokkos())
    skip();
  char *got = stencil_module_program("flat", "#include \"pkc_kokkos.hpp\"\n"
        "struct rec2 {\n"
        "  void operator()(int64_t i, int64_t j, int64_t &acc) const {\n"
        "    std::printf(\" %lld,%lld\", (long long)i, (long long)j);\n"
        "    acc += 1000 * i + j;\n"
        "  }\n"
        "};\n"
        "struct rec3 {\n"
        "  void operator()(int64_t i, int64_t j, int64_t k, int64_t &acc) const {\n"
        "    std::printf(\" %lld%lld%lld\", (long long)i, (long long)j, (long long)k);\n"
        "    acc += 1;\n"
        "  }\n"
        "};\n"
        "template <int C, class I>\n"
        "void two(const char *what) {\n"
        "  std::printf(\"%s:\", what);\n"
        "  const Kokkos::Array<int64_t, 2> lo{{1, 5}};\n"
        "  const Kokkos::Array<I, 2> n{{2, 3}};\n"
        "  int64_t acc = 0;\n"
        "  for (I k = 0; k < 6; k++) pkc::impl::flat_point<2, C>::template at<void, I>(rec2(), lo, n, k, acc);\n"
        "  std::printf(\" = %lld\\n\", (long long)acc);\n"
        "}\n"
        "template <int C>\n"
        "void three() {\n"
        "  std::printf(\"3-D %d:\", C);\n"
        "  const Kokkos::Array<int64_t, 3> lo{{0, 0, 0}};\n"
        "  const Kokkos::Array<uint32_t, 3> n{{2, 2, 2}};\n"
        "  int64_t acc = 0;\n"
        "  for (uint32_t k = 0; k < 8; k++) pkc::impl::flat_point<3, C>::template at<void, uint32_t>(rec3(), lo, n, k, acc);\n"
        "  std::printf(\"\\n\");\n"
        "}\n"
        "int main() {\n"
        "  two<0, uint32_t>(\"2-D 0 u32\");\n"
        "  two<1, uint32_t>(\"2-D 1 u32\");\n"
        "  two<1, int64_t>(\"2-D 1 i64\");\n"
        "  three<0>();\n"
        "  three<1>();\n"
        "  three<2>();\n"
        "}\n");
  /* the box [1, 3) x [5, 8); its points' sum of 1000 i + j is 9000 + 36 */
  assert_string_equal(got, "2-D 0 u32: 1,5 2,5 1,6 2,6 1,7 2,7 = 9036\n"
                           "2-D 1 u32: 1,5 1,6 1,7 2,5 2,6 2,7 = 9036\n"
                           "2-D 1 i64: 1,5 1,6 1,7 2,5 2,6 2,7 = 9036\n"
                           "3-D 0: 000 100 010 110 001 101 011 111\n"
                           "3-D 1: 000 010 001 011 100 110 101 111\n"
                           "3-D 2: 000 001 010 011 100 101 110 111\n");
  free(got);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stencil_rows_along_last_index),
      cmocka_unit_test(test_transpose_keeps_tiles),
      cmocka_unit_test(test_3d_votes_and_layout_left),
      cmocka_unit_test(test_class_views_are_c_order_on_gpus),
      cmocka_unit_test(test_launch_text),
      cmocka_unit_test(test_rows_own_writes),
      cmocka_unit_test(test_rows_shared_writes),
      cmocka_unit_test(test_stencil_row_loop_vectorized),
      cmocka_unit_test(test_default_gpu_tiles),
      cmocka_unit_test(test_flat_reduction_points),
  };
  return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
