// The floor under pkc's CUDA launch overhead (issue 12): the trivial kernel
// of examples/trivial.py (v(i) += 1 on a 1-element View) written by hand in
// Kokkos and launched back to back from C++, CALLS launches then one fence,
// median over RUNS of the time per call; and the same with a raw CUDA
// kernel (<<<1, 1>>>), the floor under Kokkos. pkc's row from Python
// (scripts/gpu/launch_cuda.sh) minus these is what the shim and the wrapper add.
//   launch_floor [CALLS [RUNS]]
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
__global__ void increment_raw(double *v) { v[0] += 1.0; }
#endif

template <class F>
double per_call_us(int calls, int runs, F launch) {
  for (int k = 0; k < calls / 10 + 1; k++) launch();  // warm-up
  Kokkos::fence();
  std::vector<double> t;
  Kokkos::Timer timer;
  for (int r = 0; r < runs; r++) {
    timer.reset();
    for (int k = 0; k < calls; k++) launch();
    Kokkos::fence();
    t.push_back(timer.seconds() / calls * 1e6);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char **argv) {
  Kokkos::initialize(argc, argv);
  {
    const int calls = argc > 1 ? std::atoi(argv[1]) : 10000;
    const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
    Kokkos::View<double *> v("v", 1);
    using policy = Kokkos::RangePolicy<Kokkos::IndexType<int64_t>>;
    double kokkos_us = per_call_us(calls, runs, [=] {
      Kokkos::parallel_for("increment", policy(0, 1), KOKKOS_LAMBDA(int64_t i) { v(i) += 1.0; });
    });
    std::printf("hand-written Kokkos %d.%d.%d, %s: %.3f us/call (median of %d x %d calls)\n",
                KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100,
                Kokkos::DefaultExecutionSpace::name(), kokkos_us, runs, calls);
#if defined(KOKKOS_ENABLE_CUDA)
    double *p = v.data();
    double raw_us = per_call_us(calls, runs, [=] { increment_raw<<<1, 1>>>(p); });
    std::printf("raw CUDA <<<1, 1>>>: %.3f us/call\n", raw_us);
#endif
  }
  Kokkos::finalize();
  return 0;
}
