// Hand-written Kokkos GUPS: random atomic XOR updates of an int64 table,
// written as a competent Kokkos user would (as in Kokkos' benchmarks/gups).
// The baseline scripts/bench.py compares examples/gups.py with.
//
//   gups_kokkos [TABLE [UPDATES [NREPEAT]]]   (default 2^24, 2^24, 10 repeats)
//
// Indices come from a Kokkos::Random_XorShift64_Pool; one warm-up and NREPEAT
// timed passes (median printed). Verification: each entry must equal its
// start value XOR datum iff it was hit an odd number of times in all passes.
// PK_TIMING=batch: the median of R batches of NREPEAT launches + one fence,
// divided by NREPEAT (the check counts every pass).
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_util.hpp"

namespace {

int run(int64_t T, int64_t U, int nrepeat) {
  using Policy = Kokkos::RangePolicy<Kokkos::IndexType<int64_t>>;
  const int64_t datum = -1;
  Kokkos::View<int64_t*> table("table", T), indices("indices", U);
  Kokkos::Random_XorShift64_Pool<> pool(20210613);
  Kokkos::parallel_for(
      "init_table", Policy(0, T), KOKKOS_LAMBDA(const int64_t i) { table(i) = i; });
  Kokkos::parallel_for(
      "random_indices", Policy(0, U), KOKKOS_LAMBDA(const int64_t i) {
        auto state = pool.get_state();
        int64_t k = static_cast<int64_t>(state.drand() * static_cast<double>(T));
        indices(i) = k < T ? k : T - 1;
        pool.free_state(state);
      });

  auto gups = KOKKOS_LAMBDA(const int64_t i) { Kokkos::atomic_fetch_xor(&table(indices(i)), datum); };
  Kokkos::parallel_for("gups", Policy(0, U), gups);  // warm-up
  Kokkos::fence();
  auto launch = [&]() { Kokkos::parallel_for("gups", Policy(0, U), gups); };
  const int repeats = bench::batch_repeats();
  const std::string mode = bench::batch_tag(nrepeat, repeats);
  const int64_t passes = repeats > 0 ? int64_t{nrepeat} * repeats : nrepeat;  // timed kernel runs
  const double t = bench::median(repeats > 0
                                     ? bench::time_batches(nrepeat, repeats, launch, bench::nothing)
                                     : bench::time_each(nrepeat, launch, bench::nothing));
  std::printf("gups_kokkos: table=%" PRId64 " updates=%" PRId64
              " nrepeat=%d %smedian kernel %.6f ms (%.4f GUP/s)\n",
              T, U, nrepeat, mode.c_str(), t * 1e3, 1e-9 * static_cast<double>(U) / t);

  auto h_table = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), table);
  auto h_idx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), indices);
  std::vector<int64_t> hits(static_cast<size_t>(T), 0);
  for (int64_t i = 0; i < U; ++i) {
    if (h_idx(i) < 0 || h_idx(i) >= T) {
      std::printf("gups_kokkos: verification FAILED (index %" PRId64 " out of range)\n", h_idx(i));
      return 1;
    }
    hits[static_cast<size_t>(h_idx(i))]++;
  }
  int64_t wrong = 0;
  for (int64_t i = 0; i < T; ++i) {
    const bool flipped = (hits[static_cast<size_t>(i)] * (1 + passes)) % 2 == 1;
    if (h_table(i) != (flipped ? (i ^ datum) : i)) ++wrong;
  }
  if (wrong) {
    std::printf("gups_kokkos: verification FAILED (%" PRId64 " of %" PRId64 " entries wrong)\n",
                wrong, T);
    return 1;
  }
  std::printf("gups_kokkos: verification PASSED\n");
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  const int64_t T = bench::arg_i64(argc, argv, 1, int64_t{1} << 24);
  const int64_t U = bench::arg_i64(argc, argv, 2, int64_t{1} << 24);
  const int nrepeat = bench::arg_int(argc, argv, 3, 10);
  if (T < 1 || U < 1 || nrepeat < 1)
    return bench::usage(argv[0], "[TABLE [UPDATES [NREPEAT]]] (all >= 1)");
  return bench::with_kokkos(argc, argv, [&]() { return run(T, U, nrepeat); });
}
