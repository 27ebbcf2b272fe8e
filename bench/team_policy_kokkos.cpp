// Hand-written Kokkos tutorial team_policy: y^T A x with one team per row and
// a nested TeamThreadRange reduction, written as a competent Kokkos user would.
// The baseline scripts/bench.py compares examples/tutorial_team_policy.py with.
//
//   team_policy_kokkos [N [M [NREPEAT]]]   (default 4096 x 1024, 100 repeats)
//
// Fills y, x, A with the same values as the Python example (multiples of 1/16,
// so y^T A x is exact in double), times NREPEAT reductions one by one after a
// warm-up, prints the median and checks the result against a serial sum.
// PK_TIMING=batch: the median of R batches of NREPEAT reductions + one fence,
// divided by NREPEAT. The result is a host double (as pkc's parallel_reduce
// returns a value), so each reduction still waits for its kernel.
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

double y_at(int64_t i) { return 1.0 + static_cast<double>(i % 7) * 0.5; }
double x_at(int64_t j) { return static_cast<double>(j % 5) - 1.5; }
double a_at(int64_t i, int64_t j) { return static_cast<double>((i + 2 * j) % 11) * 0.25; }

int run(int64_t N, int64_t M, int nrepeat) {
  using Team = Kokkos::TeamPolicy<>;
  using Member = Team::member_type;
  Kokkos::View<double*> y("y", N), x("x", M);
  Kokkos::View<double**> A("A", N, M);
  Kokkos::parallel_for(
      "init_rows", Kokkos::RangePolicy<>(0, N), KOKKOS_LAMBDA(const int64_t i) {
        y(i) = 1.0 + static_cast<double>(i % 7) * 0.5;
        for (int64_t j = 0; j < M; ++j) A(i, j) = static_cast<double>((i + 2 * j) % 11) * 0.25;
      });
  Kokkos::parallel_for(
      "init_x", Kokkos::RangePolicy<>(0, M),
      KOKKOS_LAMBDA(const int64_t j) { x(j) = static_cast<double>(j % 5) - 1.5; });

  auto yAx = KOKKOS_LAMBDA(const Member& m, double& acc) {
    const int64_t j = m.league_rank();
    double row = 0.0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(m, M), [&](const int64_t i, double& inner) { inner += A(j, i) * x(i); },
        row);
    Kokkos::single(Kokkos::PerTeam(m), [&]() { acc += y(j) * row; });
  };
  double result = 0.0;
  Kokkos::parallel_reduce("yAx", Team(N, Kokkos::AUTO), yAx, result);  // warm-up
  Kokkos::fence();

  std::vector<double> times;
  Kokkos::Timer timer;
  const int repeats = batch_repeats();
  std::string mode;
  if (repeats > 0) {
    for (int r = 0; r < repeats; ++r) {
      timer.reset();
      for (int k = 0; k < nrepeat; ++k)
        Kokkos::parallel_reduce("yAx", Team(N, Kokkos::AUTO), yAx, result);
      Kokkos::fence();
      times.push_back(timer.seconds() / nrepeat);
    }
    mode = "timing=batch K=" + std::to_string(nrepeat) + " R=" + std::to_string(repeats) + " ";
  } else {
    for (int r = 0; r < nrepeat; ++r) {
      timer.reset();
      Kokkos::parallel_reduce("yAx", Team(N, Kokkos::AUTO), yAx, result);
      Kokkos::fence();
      times.push_back(timer.seconds());
    }
  }
  const double t = median(times);
  const double gbytes = 1e-9 * 8.0 * static_cast<double>(N * M + N + M);
  std::printf("team_policy_kokkos: N=%" PRId64 " M=%" PRId64
              " nrepeat=%d %smedian kernel %.6f ms (%.2f GB/s)\n",
              N, M, nrepeat, mode.c_str(), t * 1e3, gbytes / t);

  double expect = 0.0, scale = 0.0;
  for (int64_t i = 0; i < N; ++i) {
    double row = 0.0, arow = 0.0;
    for (int64_t j = 0; j < M; ++j) {
      row += a_at(i, j) * x_at(j);
      arow += a_at(i, j) * std::fabs(x_at(j));
    }
    expect += y_at(i) * row;
    scale += y_at(i) * arow;
  }
  if (std::fabs(result - expect) > 1e-12 * std::max(scale, 1.0)) {
    std::printf("team_policy_kokkos: verification FAILED (y^T A x = %.17g, expected %.17g)\n",
                result, expect);
    return 1;
  }
  std::printf("team_policy_kokkos: verification PASSED (y^T A x = %.10g)\n", result);
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  const int64_t N = argc > 1 ? std::atoll(argv[1]) : 4096;
  const int64_t M = argc > 2 ? std::atoll(argv[2]) : 1024;
  const int nrepeat = argc > 3 ? std::atoi(argv[3]) : 100;
  if (N < 1 || M < 1 || nrepeat < 1) {
    std::fprintf(stderr, "usage: %s [N [M [NREPEAT]]] (all >= 1)\n", argv[0]);
    return 2;
  }
  Kokkos::initialize(argc, argv);
  int rc = run(N, M, nrepeat);
  Kokkos::finalize();
  return rc;
}
