// Raw CUDA baselines for the pkc GPU benchmark (bench/cuda/run.sh):
// nstream (A += B + s*C), BabelStream triad (a = b + s*c) and copy (c = a),
// and gups (T[idx[i]] ^= V[i]), doubles / int64, one element per thread,
// 256-thread blocks (what a CUDA programmer writes by default).
//   raw [N_LOG2 [ITERATIONS]]     (default 2^26, 50 iterations)
// Each kernel: one warm-up, then ITERATIONS timed launches, each timed with
// a host clock around launch + cudaDeviceSynchronize (the same method the
// Kokkos and pkc versions use); prints the median and the bandwidth.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void nstream(int64_t n, double *A, const double *B, const double *C, double s) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) A[i] += B[i] + s * C[i];
}
__global__ void triad(int64_t n, double *a, const double *b, const double *c, double s) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}
__global__ void copy(int64_t n, const double *a, double *c) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i];
}
__global__ void gups(int64_t n, int64_t *T, const int64_t *idx, const int64_t *V) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) T[idx[i]] ^= V[i];
}
__global__ void fill(int64_t n, double *x, double v) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) x[i] = v;
}

template <class F>
double time_median(int iters, F launch) {
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<double> t;
  for (int k = 0; k < iters; k++) {
    auto t0 = std::chrono::steady_clock::now();
    launch();
    CK(cudaDeviceSynchronize());
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  CK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char **argv) {
  int lg = argc > 1 ? std::atoi(argv[1]) : 26;
  int iters = argc > 2 ? std::atoi(argv[2]) : 50;
  int64_t n = int64_t(1) << lg;
  const int bs = 256;
  const unsigned grid = unsigned((n + bs - 1) / bs);
  double *A, *B, *C;
  int64_t *T, *I, *V;
  CK(cudaMalloc(&A, n * 8)); CK(cudaMalloc(&B, n * 8)); CK(cudaMalloc(&C, n * 8));
  fill<<<grid, bs>>>(n, A, 0.0); fill<<<grid, bs>>>(n, B, 2.0); fill<<<grid, bs>>>(n, C, 2.0);
  double t = time_median(iters, [&] { nstream<<<grid, bs>>>(n, A, B, C, 3.0); });
  std::printf("raw nstream  N=2^%d median %.4f ms  %.1f GB/s\n", lg, t * 1e3, 32.0 * n / t / 1e9);
  t = time_median(iters, [&] { triad<<<grid, bs>>>(n, A, B, C, 0.4); });
  std::printf("raw triad    N=2^%d median %.4f ms  %.1f GB/s\n", lg, t * 1e3, 24.0 * n / t / 1e9);
  t = time_median(iters, [&] { copy<<<grid, bs>>>(n, A, C); });
  std::printf("raw copy     N=2^%d median %.4f ms  %.1f GB/s\n", lg, t * 1e3, 16.0 * n / t / 1e9);
  double check = 0;
  CK(cudaMemcpy(&check, C + n / 2, 8, cudaMemcpyDeviceToHost));
  CK(cudaFree(A)); CK(cudaFree(B)); CK(cudaFree(C));
  // gups: table of 2^(lg-2) int64, n updates at random slots
  int64_t tn = n / 4;
  std::vector<int64_t> hi(n), hv(n);
  uint64_t x = 88172645463325252ull;
  for (int64_t i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    hi[i] = int64_t(x % uint64_t(tn));
    hv[i] = int64_t(x >> 1);
  }
  CK(cudaMalloc(&T, tn * 8)); CK(cudaMalloc(&I, n * 8)); CK(cudaMalloc(&V, n * 8));
  CK(cudaMemset(T, 0, tn * 8));
  CK(cudaMemcpy(I, hi.data(), n * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(V, hv.data(), n * 8, cudaMemcpyHostToDevice));
  t = time_median(iters, [&] { gups<<<grid, bs>>>(n, T, I, V); });
  std::printf("raw gups     N=2^%d median %.4f ms  %.3f GUP/s\n", lg, t * 1e3, n / t / 1e9);
  CK(cudaFree(T)); CK(cudaFree(I)); CK(cudaFree(V));
  std::printf("raw check %s\n", check == 2.8 ? "PASSED" : "FAILED");
  return check == 2.8 ? 0 : 1;
}
