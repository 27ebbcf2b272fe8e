// The gated flat walk of pkc_dialect.hpp (impl::flat_gate, impl::flat_for3),
// on the host: a gated rank-3 launch must visit every point of its box once,
// and every point that can read a ghost (outside the gate along some index)
// after every point that cannot. On GPUs the walk's order is the blocks'
// start order, which is what lets the gated points find the exchange done.
// Built and run by tests/run_tests.py (group c_host) against the project's
// Kokkos; prints "flat_gate: ok" or the first wrong point.
#include "pkc_kokkos.hpp"
#include "pkc_abi.h"
#include "pkc_dialect.hpp"

#include <cstdio>
#include <vector>

namespace {

constexpr int64_t kSide = 12;   // the View's extent along each index

// Records the order in which the walk calls each point of a kSide^3 grid.
struct Recorder {
  int *visits;
  int *order;
  int *clock;
  void operator()(const int64_t i, const int64_t j, const int64_t k) const {
    const int64_t at = (i * kSide + j) * kSide + k;
    visits[at]++;
    order[at] = (*clock)++;
  }
};

struct Case {
  const char *what;
  int64_t lo[3], n[3];
  int64_t head[3], tail[3];   // a point waits if x[d] < head[d] or x[d] >= tail[d]
};

template <int C>
int check(const Case &c) {
  std::vector<int> visits(kSide * kSide * kSide, 0), order(visits.size(), -1);
  int clock = 0;
  pkc::impl::flat_for3<void, C, Recorder> walk{Recorder{visits.data(), order.data(), &clock}};
  for (int d = 0; d < 3; d++) {
    walk.box.lo[d] = c.lo[d];
    walk.box.n[d] = static_cast<uint32_t>(c.n[d]);
  }
  const uint32_t open = 1;
  pkc_gate gate{};
  gate.counter = &open;
  gate.target = 1;
  for (int d = 0; d < 8; d++) gate.head[d] = INT64_MIN, gate.tail[d] = INT64_MAX;
  for (int d = 0; d < 3; d++) gate.head[d] = c.head[d], gate.tail[d] = c.tail[d];
  pkc::impl::flat_gate(walk, gate, pkc::impl::flat_point<3, C>::ka,
                       pkc::impl::flat_point<3, C>::kb, C);
  const int64_t total = c.n[0] * c.n[1] * c.n[2];
  for (int64_t k = 0; k < total; k++) walk(k);
  int last_free = -1, first_gated = total > 0 ? static_cast<int>(total) : 0;
  int64_t gated = 0;
  for (int64_t i = 0; i < kSide; i++)
    for (int64_t j = 0; j < kSide; j++)
      for (int64_t k = 0; k < kSide; k++) {
        const int64_t x[3] = {i, j, k}, at = (i * kSide + j) * kSide + k;
        bool in = true, waits = false;
        for (int d = 0; d < 3; d++) {
          in = in && x[d] >= c.lo[d] && x[d] < c.lo[d] + c.n[d];
          waits = waits || x[d] < c.head[d] || x[d] >= c.tail[d];
        }
        if (visits[at] != (in ? 1 : 0)) {
          printf("%s (C=%d): point (%ld, %ld, %ld) visited %d times\n", c.what, C, (long)i,
                 (long)j, (long)k, visits[at]);
          return 1;
        }
        if (!in) continue;
        gated += waits;
        if (waits) first_gated = order[at] < first_gated ? order[at] : first_gated;
        else last_free = order[at] > last_free ? order[at] : last_free;
      }
  if (last_free >= first_gated) {
    printf("%s (C=%d): a gated point (walk position %d) comes before a free one (%d)\n", c.what,
           C, first_gated, last_free);
    return 1;
  }
  if (static_cast<int64_t>(walk.inner) != total - gated) {
    printf("%s (C=%d): %u points run at once, expected %ld\n", c.what, C, walk.inner,
           (long)(total - gated));
    return 1;
  }
  return 0;
}

}  // namespace

int main() {
  const int64_t no = INT64_MIN, all = INT64_MAX;
  const Case cases[] = {
      {"slabs: the slowest index gated", {1, 0, 2}, {5, 6, 7}, {no, no, 3}, {all, all, 8}},
      {"the contiguous index gated", {1, 0, 2}, {5, 6, 7}, {2, no, no}, {5, all, all}},
      {"two indices gated (2x2x1)", {1, 0, 2}, {5, 6, 7}, {2, 1, no}, {5, 5, all}},
      {"every index gated", {1, 0, 2}, {5, 6, 7}, {2, 1, 3}, {5, 5, 8}},
      {"one side only", {0, 0, 0}, {12, 12, 12}, {no, no, 1}, {all, all, all}},
      {"every point gated", {2, 2, 2}, {3, 3, 3}, {6, no, no}, {7, all, all}},
      {"a gate outside the box", {2, 2, 2}, {3, 3, 3}, {0, 0, 0}, {11, 11, 11}},
      {"an empty box", {2, 2, 2}, {0, 3, 3}, {3, no, no}, {4, all, all}},
  };
  int bad = 0;
  for (const Case &c : cases) bad += check<0>(c) + check<2>(c);
  if (bad) return 1;
  printf("flat_gate: ok\n");
  return 0;
}
