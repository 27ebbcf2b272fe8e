// Helpers shared by the hand-written Kokkos baselines bench/*_kokkos.cpp:
// timing mode, median, the batch/one-by-one timing loops, argument parsing and
// the "timing=batch ..." tag of the result line (scripts/bench.py and
// scripts/gpu/run_all.sh parse those lines; keep their format).
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace bench {

// Timing mode from the environment, as in the pkc examples: PK_TIMING=batch
// times K back-to-back launches and one fence, divided by K, R times
// (R = PK_TIMING_REPEATS, default 5); otherwise 0 (one launch + fence each).
inline int batch_repeats() {
  const char* mode = std::getenv("PK_TIMING");
  if (!mode || std::strcmp(mode, "batch") != 0) return 0;
  const char* r = std::getenv("PK_TIMING_REPEATS");
  return r ? std::max(1, std::atoi(r)) : 5;
}

// Median of the samples (mean of the two middle ones for an even count); v non-empty.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The tag printed before the timing in batch mode ("" otherwise), e.g.
// "timing=batch K=10 R=5 " (trailing space included).
inline std::string batch_tag(int k, int repeats) {
  if (repeats <= 0) return "";
  return "timing=batch K=" + std::to_string(k) + " R=" + std::to_string(repeats) + " ";
}

// Batch mode: `repeats` times, fence, run launch() k times, fence; returns the
// per-launch seconds of each batch. after() runs after each batch, untimed.
template <class Launch, class After>
std::vector<double> time_batches(int k, int repeats, Launch launch, After after) {
  std::vector<double> times;
  Kokkos::Timer timer;
  for (int r = 0; r < repeats; ++r) {
    Kokkos::fence();
    timer.reset();
    for (int i = 0; i < k; ++i) launch();
    Kokkos::fence();
    times.push_back(timer.seconds() / k);
    after();
  }
  return times;
}

// One-by-one mode: `count` times, fence, launch(), fence; returns each launch's
// seconds. after() runs after each launch, untimed.
template <class Launch, class After>
std::vector<double> time_each(int count, Launch launch, After after) {
  std::vector<double> times;
  Kokkos::Timer timer;
  for (int i = 0; i < count; ++i) {
    Kokkos::fence();
    timer.reset();
    launch();
    Kokkos::fence();
    times.push_back(timer.seconds());
    after();
  }
  return times;
}

// A no-op for the `after` argument of time_batches / time_each.
inline void nothing() {}

// argv[i] as an int64 (std::atoll), or `fallback` when there are only i arguments.
inline int64_t arg_i64(int argc, char* argv[], int i, int64_t fallback) {
  return argc > i ? std::atoll(argv[i]) : fallback;
}

// argv[i] as an int (std::atoi), or `fallback` when there are only i arguments.
inline int arg_int(int argc, char* argv[], int i, int fallback) {
  return argc > i ? std::atoi(argv[i]) : fallback;
}

// Prints "usage: PROG USAGE" to stderr and returns exit status 2.
inline int usage(const char* prog, const char* text) {
  std::fprintf(stderr, "usage: %s %s\n", prog, text);
  return 2;
}

// Kokkos::initialize, run(), Kokkos::finalize; returns run()'s exit status.
template <class Run>
int with_kokkos(int argc, char* argv[], Run run) {
  Kokkos::initialize(argc, argv);
  const int rc = run();
  Kokkos::finalize();
  return rc;
}

}  // namespace bench
