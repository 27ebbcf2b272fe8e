// Hand-written Kokkos nstream (PRK): A(i) += B(i) + scalar * C(i).
// The baseline scripts/bench.py compares pkc's generated nstream against:
// written as a competent Kokkos user would, built with the same Kokkos and
// CMake Release flags as pkc's modules.
//
//   nstream_kokkos [N [ITERATIONS]]   (default N = 2^20, 10 iterations)
//
// Prints the median kernel time of ITERATIONS timed iterations (after one
// warm-up) and checks the sum of A against its closed form. PK_TIMING=batch:
// the median of R batches of ITERATIONS launches + one fence, divided by ITERATIONS.
#include <Kokkos_Core.hpp>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>

#include "bench_util.hpp"

namespace {

int run(int64_t N, int iterations) {
  const double scalar = 3.0;
  Kokkos::View<double*> A("A", N), B("B", N), C("C", N);
  Kokkos::deep_copy(A, 0.0);
  Kokkos::deep_copy(B, 2.0);
  Kokkos::deep_copy(C, 2.0);
  using Policy = Kokkos::RangePolicy<Kokkos::IndexType<int64_t>>;

  auto nstream = KOKKOS_LAMBDA(const int64_t i) { A(i) += B(i) + scalar * C(i); };
  Kokkos::parallel_for("nstream", Policy(0, N), nstream);  // warm-up
  Kokkos::fence();

  auto launch = [&]() { Kokkos::parallel_for("nstream", Policy(0, N), nstream); };
  const int repeats = bench::batch_repeats();
  const std::string mode = bench::batch_tag(iterations, repeats);
  const int launches = repeats > 0 ? iterations * repeats : iterations;  // timed kernel runs
  const double t = bench::median(repeats > 0
                                     ? bench::time_batches(iterations, repeats, launch, bench::nothing)
                                     : bench::time_each(iterations, launch, bench::nothing));
  const double nbytes = 4.0 * sizeof(double) * static_cast<double>(N);
  std::printf("nstream_kokkos: N=%" PRId64 " iterations=%d %smedian kernel %.6f ms (%.2f GB/s)\n",
              N, iterations, mode.c_str(), t * 1e3, nbytes / t / 1e9);

  double asum = 0.0;
  Kokkos::parallel_reduce(
      "asum", Policy(0, N), KOKKOS_LAMBDA(const int64_t i, double& acc) { acc += std::fabs(A(i)); },
      asum);
  const double reference = static_cast<double>(N) * (launches + 1) * (2.0 + scalar * 2.0);
  const double error = std::fabs(asum - reference) / reference;
  if (error > 1e-8) {
    std::printf("nstream_kokkos: verification FAILED (sum of A %.17g, expected %.17g)\n", asum,
                reference);
    return 1;
  }
  std::printf("nstream_kokkos: verification PASSED (sum of A = %.6g, relative error %.1e)\n", asum,
              error);
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  const int64_t N = bench::arg_i64(argc, argv, 1, int64_t{1} << 20);
  const int iterations = bench::arg_int(argc, argv, 2, 10);
  if (N < 1 || iterations < 1) return bench::usage(argv[0], "[N [ITERATIONS]] (both >= 1)");
  return bench::with_kokkos(argc, argv, [&]() { return run(N, iterations); });
}
