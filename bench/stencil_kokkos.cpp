// Hand-written Kokkos PRK stencil (radius-2 star, tiled MDRangePolicy), the
// baseline scripts/bench.py compares examples/stencil.py against: the same
// kernels a competent Kokkos user writes (as in the PRK Kokkos port), built
// with the same Kokkos and CMake Release flags as pkc's modules.
//
//   stencil_kokkos [N [ITERATIONS [TILE]]]   (default 1000, 10 iterations, tile 32)
//
// in(i,j) = i + j, out = 0; each iteration: out += star(in) over the interior,
// then in += 1 everywhere. Iteration 0 is an untimed warm-up; the median time
// of the stencil kernel over the others is printed, then the L1 norm of out
// over the interior is checked against (ITERATIONS + 1) * 2 per point.
// PK_TIMING=batch: one warm-up, then the median of R batches of ITERATIONS
// stencil launches + one fence, divided by ITERATIONS (one increment after each
// batch); the check counts every stencil run.
#include <Kokkos_Core.hpp>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>

#include "bench_util.hpp"

namespace {

constexpr int64_t R = 2;

int run(int64_t n, int iterations, int64_t tile) {
  using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>, Kokkos::IndexType<int64_t>>;
  Kokkos::View<double**> in("in", n, n), out("out", n, n);
  const MD full({0, 0}, {n, n}, {tile, tile});
  const MD inside({R, R}, {n - R, n - R}, {tile, tile});
  Kokkos::parallel_for(
      "init", full, KOKKOS_LAMBDA(const int64_t i, const int64_t j) {
        in(i, j) = static_cast<double>(i + j);
        out(i, j) = 0.0;
      });

  auto stencil = KOKKOS_LAMBDA(const int64_t i, const int64_t j) {
    out(i, j) += in(i - 2, j) * -0.125 + in(i - 1, j) * -0.25 + in(i, j - 2) * -0.125 +
                 in(i, j - 1) * -0.25 + in(i, j + 1) * 0.25 + in(i, j + 2) * 0.125 +
                 in(i + 1, j) * 0.25 + in(i + 2, j) * 0.125;
  };
  auto increment = KOKKOS_LAMBDA(const int64_t i, const int64_t j) { in(i, j) += 1.0; };
  auto launch = [&]() { Kokkos::parallel_for("stencil", inside, stencil); };
  auto after = [&]() { Kokkos::parallel_for("increment", full, increment); };
  launch();  // untimed warm-up
  after();
  const int repeats = bench::batch_repeats();
  const std::string mode = bench::batch_tag(iterations, repeats);
  const int launches = repeats > 0 ? iterations * repeats : iterations;  // timed stencil runs
  const double t = bench::median(repeats > 0 ? bench::time_batches(iterations, repeats, launch, after)
                                             : bench::time_each(iterations, launch, after));
  const double active = static_cast<double>((n - 2 * R) * (n - 2 * R));
  std::printf("stencil_kokkos: n=%" PRId64 " radius=%d tile=%" PRId64
              " iterations=%d %skernel median %.6f ms (%.1f MFlop/s)\n",
              n, static_cast<int>(R), tile, iterations, mode.c_str(), t * 1e3,
              2.0 * (4 * R + 1) * active / t / 1e6);

  double l1 = 0.0;
  Kokkos::parallel_reduce(
      "norm", inside,
      KOKKOS_LAMBDA(const int64_t i, const int64_t j, double& acc) { acc += std::fabs(out(i, j)); },
      l1);
  l1 /= active;
  const double reference = (launches + 1) * 2.0;
  if (std::fabs(l1 - reference) > 1e-8 * reference) {
    std::printf("stencil_kokkos: verification FAILED (L1 norm %.17g, expected %.17g)\n", l1,
                reference);
    return 1;
  }
  std::printf("stencil_kokkos: verification PASSED (L1 norm = %.12g, expected %.12g)\n", l1,
              reference);
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  const int64_t n = bench::arg_i64(argc, argv, 1, 1000);
  const int iterations = bench::arg_int(argc, argv, 2, 10);
  const int64_t tile = bench::arg_i64(argc, argv, 3, 32);
  if (n <= 2 * R || iterations < 1 || tile < 1)
    return bench::usage(argv[0], "[N [ITERATIONS [TILE]]] (N > 4, others >= 1)");
  return bench::with_kokkos(argc, argv, [&]() { return run(n, iterations, tile); });
}
