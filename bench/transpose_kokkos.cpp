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
  std::vector<double> times;
  Kokkos::Timer timer;
  const int repeats = batch_repeats();
  std::string mode;
  int launches = iterations;  // timed sweeps
  if (repeats > 0) {
    Kokkos::parallel_for("transpose", policy, transpose);  // warm-up
    for (int r = 0; r < repeats; ++r) {
      Kokkos::fence();
      timer.reset();
      for (int it = 0; it < iterations; ++it) Kokkos::parallel_for("transpose", policy, transpose);
      Kokkos::fence();
      times.push_back(timer.seconds() / iterations);
    }
    mode = "timing=batch K=" + std::to_string(iterations) + " R=" + std::to_string(repeats) + " ";
    launches = iterations * repeats;
  } else {
    for (int it = 0; it <= iterations; ++it) {  // iteration 0 is the untimed warm-up
      Kokkos::fence();
      timer.reset();
      Kokkos::parallel_for("transpose", policy, transpose);
      Kokkos::fence();
      if (it > 0) times.push_back(timer.seconds());
    }
  }
  const double t = median(times);
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
  const int64_t order = argc > 1 ? std::atoll(argv[1]) : 1024;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 10;
  const int64_t tile = argc > 3 ? std::atoll(argv[3]) : 32;
  if (order < 1 || iterations < 1 || tile < 1) {
    std::fprintf(stderr, "usage: %s [ORDER [ITERATIONS [TILE]]] (all >= 1)\n", argv[0]);
    return 2;
  }
  Kokkos::initialize(argc, argv);
  int rc = run(order, iterations, tile);
  Kokkos::finalize();
  return rc;
}
