// Hand-written Kokkos versions of bench/cuda/raw.cu's kernels (nstream,
// triad, copy, gups), written as a competent Kokkos user would: default
// RangePolicy, lambdas, Views in the default memory space. Same timing
// method (host clock around launch + fence, median of ITERATIONS).
// Also prints the block size Kokkos picks for a range parallel_for.
//   kokkos_stream [N_LOG2 [ITERATIONS]]
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <class F>
double time_median(int iters, F launch) {
  launch();
  Kokkos::fence();
  std::vector<double> t;
  Kokkos::Timer timer;
  for (int k = 0; k < iters; k++) {
    timer.reset();
    launch();
    Kokkos::fence();
    t.push_back(timer.seconds());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char **argv) {
  Kokkos::initialize(argc, argv);
  int rc = 0;
  {
    int lg = argc > 1 ? std::atoi(argv[1]) : 26;
    int iters = argc > 2 ? std::atoi(argv[2]) : 50;
    int64_t n = int64_t(1) << lg;
    using P = Kokkos::RangePolicy<Kokkos::IndexType<int64_t>>;
    Kokkos::View<int *> bs("bs", 1);
    Kokkos::parallel_for(P(0, n), KOKKOS_LAMBDA(int64_t i) {
      if (i == 0) {
#ifdef __CUDA_ARCH__
        bs(0) = blockDim.x * blockDim.y * blockDim.z;
#else
        bs(0) = 1;
#endif
      }
    });
    auto hbs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bs);
    std::printf("kokkos block size for a range parallel_for: %d threads\n", hbs(0));
    {
      Kokkos::View<double *> A("A", n), B("B", n), C("C", n);
      Kokkos::deep_copy(B, 2.0);
      Kokkos::deep_copy(C, 2.0);
      double s = 3.0;
      double t = time_median(iters, [&] {
        Kokkos::parallel_for("nstream", P(0, n), KOKKOS_LAMBDA(int64_t i) { A(i) += B(i) + s * C(i); });
      });
      std::printf("kokkos nstream N=2^%d median %.4f ms  %.1f GB/s\n", lg, t * 1e3, 32.0 * n / t / 1e9);
      double q = 0.4;
      t = time_median(iters, [&] {
        Kokkos::parallel_for("triad", P(0, n), KOKKOS_LAMBDA(int64_t i) { A(i) = B(i) + q * C(i); });
      });
      std::printf("kokkos triad   N=2^%d median %.4f ms  %.1f GB/s\n", lg, t * 1e3, 24.0 * n / t / 1e9);
      t = time_median(iters, [&] {
        Kokkos::parallel_for("copy", P(0, n), KOKKOS_LAMBDA(int64_t i) { C(i) = A(i); });
      });
      std::printf("kokkos copy    N=2^%d median %.4f ms  %.1f GB/s\n", lg, t * 1e3, 16.0 * n / t / 1e9);
    }
    {
      int64_t tn = n / 4;
      Kokkos::View<int64_t *> T("T", tn), I("I", n), V("V", n);
      auto hi = Kokkos::create_mirror_view(I);
      auto hv = Kokkos::create_mirror_view(V);
      uint64_t x = 88172645463325252ull;
      for (int64_t i = 0; i < n; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        hi(i) = int64_t(x % uint64_t(tn));
        hv(i) = int64_t(x >> 1);
      }
      Kokkos::deep_copy(I, hi);
      Kokkos::deep_copy(V, hv);
      double t = time_median(iters, [&] {
        Kokkos::parallel_for("gups", P(0, n), KOKKOS_LAMBDA(int64_t i) { T(I(i)) ^= V(i); });
      });
      std::printf("kokkos gups    N=2^%d median %.4f ms  %.3f GUP/s\n", lg, t * 1e3, n / t / 1e9);
    }
  }
  Kokkos::finalize();
  return rc;
}
