// Hand-written Kokkos PRK transpose (B += A^T; A += 1 in one tiled MDRange
// kernel), the baseline scripts/bench.py compares examples/transpose.py
// against; built with the same Kokkos and CMake Release flags as pkc's modules.
//
//   transpose_kokkos [ORDER [ITERATIONS [TILE]]]   (default 1024, 10 iterations, tile 32)
//
// A(i,j) = i*order + j, B = 0. Iteration 0 is an untimed warm-up; the median
// of the other ITERATIONS is printed, then B is checked against the PRK closed
// form (summed absolute error < 1e-8). PK_TIMING=batch: one warm-up, then the
// median of R batches of ITERATIONS launches + one fence, divided by ITERATIONS
// (the check counts every sweep).
#include <Kokkos_Core.hpp>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>

#include "bench_util.hpp"

namespace {

int run(int64_t order, int iterations, int64_t tile) {
  using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>, Kokkos::IndexType<int64_t>>;
  Kokkos::View<double**> A("A", order, order), B("B", order, order);
  const MD policy({0, 0}, {order, order}, {tile, tile});
  Kokkos::parallel_for(
      "init", policy, KOKKOS_LAMBDA(const int64_t i, const int64_t j) {
        A(i, j) = static_cast<double>(i * order + j);
        B(i, j) = 0.0;
      });

  auto transpose = KOKKOS_LAMBDA(const int64_t i, const int64_t j) {
    B(i, j) += A(j, i);
    A(j, i) += 1.0;
  };
  auto launch = [&]() { Kokkos::parallel_for("transpose", policy, transpose); };
  launch();  // untimed warm-up
  const int repeats = bench::batch_repeats();
  const std::string mode = bench::batch_tag(iterations, repeats);
  const int launches = repeats > 0 ? iterations * repeats : iterations;  // timed sweeps
  const double t = bench::median(repeats > 0
                                     ? bench::time_batches(iterations, repeats, launch, bench::nothing)
                                     : bench::time_each(iterations, launch, bench::nothing));
  const double nbytes = 4.0 * sizeof(double) * static_cast<double>(order * order);
  std::printf("transpose_kokkos: order=%" PRId64 " tile=%" PRId64
              " iterations=%d %skernel median %.6f ms (%.2f GB/s)\n",
              order, tile, iterations, mode.c_str(), t * 1e3, nbytes / t / 1e9);

  const double addit = (launches + 1.0) * (0.5 * launches);
  double err = 0.0;
  Kokkos::parallel_reduce(
      "abserr", policy,
      KOKKOS_LAMBDA(const int64_t i, const int64_t j, double& acc) {
        const double expected = static_cast<double>(j * order + i) * (launches + 1.0) + addit;
        acc += std::fabs(B(i, j) - expected);
      },
      err);
  if (!(err < 1e-8)) {
    std::printf("transpose_kokkos: verification FAILED (summed absolute error %.17g)\n", err);
    return 1;
  }
  std::printf("transpose_kokkos: verification PASSED (summed absolute error %.1e)\n", err);
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  const int64_t order = bench::arg_i64(argc, argv, 1, 1024);
  const int iterations = bench::arg_int(argc, argv, 2, 10);
  const int64_t tile = bench::arg_i64(argc, argv, 3, 32);
  if (order < 1 || iterations < 1 || tile < 1)
    return bench::usage(argv[0], "[ORDER [ITERATIONS [TILE]]] (all >= 1)");
  return bench::with_kokkos(argc, argv, [&]() { return run(order, iterations, tile); });
}
