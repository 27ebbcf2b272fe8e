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

#include <algorithm>
#include <cinttypes>
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
  std::vector<double> times;
  Kokkos::Timer timer;
  const int repeats = batch_repeats();
  std::string mode;
  int64_t passes = nrepeat;  // timed kernel runs
  if (repeats > 0) {
    for (int r = 0; r < repeats; ++r) {
      timer.reset();
      for (int k = 0; k < nrepeat; ++k) Kokkos::parallel_for("gups", Policy(0, U), gups);
      Kokkos::fence();
      times.push_back(timer.seconds() / nrepeat);
    }
    mode = "timing=batch K=" + std::to_string(nrepeat) + " R=" + std::to_string(repeats) + " ";
    passes = int64_t{nrepeat} * repeats;
  } else {
    for (int r = 0; r < nrepeat; ++r) {
      timer.reset();
      Kokkos::parallel_for("gups", Policy(0, U), gups);
      Kokkos::fence();
      times.push_back(timer.seconds());
    }
  }
  const double t = median(times);
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
  const int64_t T = argc > 1 ? std::atoll(argv[1]) : (int64_t{1} << 24);
  const int64_t U = argc > 2 ? std::atoll(argv[2]) : (int64_t{1} << 24);
  const int nrepeat = argc > 3 ? std::atoi(argv[3]) : 10;
  if (T < 1 || U < 1 || nrepeat < 1) {
    std::fprintf(stderr, "usage: %s [TABLE [UPDATES [NREPEAT]]] (all >= 1)\n", argv[0]);
    return 2;
  }
  Kokkos::initialize(argc, argv);
  int rc = run(T, U, nrepeat);
  Kokkos::finalize();
  return rc;
}
