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

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Timing mode from the environment, as in the pkc examples: PK_TIMING=batch
// times K back-to-back launches and one fence, divided by K, R times
// (R = PK_TIMING_REPEATS, default 5); otherwise 0 (one launch + fence each).
int batch_repeats() {
  const char* mode = std::getenv("PK_TIMING");
  if (!mode || std::strcmp(mode, "batch") != 0) return 0;
  const char* r = std::getenv("PK_TIMING_REPEATS");
  return r ? std::max(1, std::atoi(r)) : 5;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

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

  std::vector<double> times;
  Kokkos::Timer timer;
  const int repeats = batch_repeats();
  std::string mode;
  int launches = iterations;  // timed kernel runs
  if (repeats > 0) {
    for (int r = 0; r < repeats; ++r) {
      timer.reset();
      for (int k = 0; k < iterations; ++k) Kokkos::parallel_for("nstream", Policy(0, N), nstream);
      Kokkos::fence();
      times.push_back(timer.seconds() / iterations);
    }
    mode = "timing=batch K=" + std::to_string(iterations) + " R=" + std::to_string(repeats) + " ";
    launches = iterations * repeats;
  } else {
    for (int k = 0; k < iterations; ++k) {
      timer.reset();
      Kokkos::parallel_for("nstream", Policy(0, N), nstream);
      Kokkos::fence();
      times.push_back(timer.seconds());
    }
  }
  const double t = median(times);
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
  const int64_t N = argc > 1 ? std::atoll(argv[1]) : (int64_t{1} << 20);
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 10;
  if (N < 1 || iterations < 1) {
    std::fprintf(stderr, "usage: %s [N [ITERATIONS]] (both >= 1)\n", argv[0]);
    return 2;
  }
  Kokkos::initialize(argc, argv);
  int rc = run(N, iterations);
  Kokkos::finalize();
  return rc;
}
