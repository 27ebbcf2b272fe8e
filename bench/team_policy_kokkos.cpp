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
#include <string>

#include "bench_util.hpp"

namespace {

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

  auto launch = [&]() { Kokkos::parallel_reduce("yAx", Team(N, Kokkos::AUTO), yAx, result); };
  const int repeats = bench::batch_repeats();
  const std::string mode = bench::batch_tag(nrepeat, repeats);
  const double t = bench::median(repeats > 0
                                     ? bench::time_batches(nrepeat, repeats, launch, bench::nothing)
                                     : bench::time_each(nrepeat, launch, bench::nothing));
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
  const int64_t N = bench::arg_i64(argc, argv, 1, 4096);
  const int64_t M = bench::arg_i64(argc, argv, 2, 1024);
  const int nrepeat = bench::arg_int(argc, argv, 3, 100);
  if (N < 1 || M < 1 || nrepeat < 1) return bench::usage(argv[0], "[N [M [NREPEAT]]] (all >= 1)");
  return bench::with_kokkos(argc, argv, [&]() { return run(N, M, nrepeat); });
}
