// gate_probe.cu - the 128^3 Jacobi step of one slab rank on one GPU, hand
// written in CUDA, five ways, each captured 8 steps per CUDA graph (issue 25,
// the in-kernel gate of docs/PERFORMANCE.md): the slab is periodic along
// dimension 0, so it is its own neighbour and the face exchange is a kernel
// copying two planes into the ghost planes, as an NVSHMEM exchange's stores.
//   plain        update, copy back (no exchange: what one GPU runs)
//   serial       exchange, then update, then copy back
//   overlap      exchange beside the inner planes' update, then the two rim
//                planes, then the copy (the graph-level overlap pkc runs)
//   gated        exchange beside the whole update; the blocks of the two
//                planes that read ghosts wait inside the update kernel for
//                the exchange's completion counter (ld.acquire), and the
//                plane index is rotated so that they are dispatched last
//   gated-norot  the same without the rotation
// plus the update and the copy alone. Prints the median µs per step of 21
// blocks of 8 graph launches and checks every exchanging shape bitwise
// against serial. Usage: nvcc -O3 -arch=sm_90 gate_probe.cu -o gate_probe;
// ./gate_probe [EXCHANGE_BLOCKS (17)] [x: three plain launches, for a profiler].
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

constexpr int N = 128;           // interior per dim
constexpr int P = N + 2;         // with ghosts
__host__ __device__ inline size_t at(int i, int j, int k) { return ((size_t)i * P + j) * P + k; }

// 7-point Jacobi on planes [ilo, ihi] (1-based interior), rot: rotate the
// plane index so that planes 1 and N come last in dispatch order; gate:
// planes 1 and N wait for *cnt >= target first.
__global__ void update(const double* __restrict__ u, double* __restrict__ un, int ilo, int nplanes,
                       int rot, const unsigned* cnt, unsigned target) {
  int k = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
  int z = blockIdx.z;
  int i = rot ? ((z + 1) % N) + 1 : z + ilo;
  if (cnt && (i == 1 || i == N)) {
    if (threadIdx.x == 0 && threadIdx.y == 0) {
      while (true) {
        unsigned v;
        asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(cnt));
        if ((int)(v - target) >= 0) break;
      }
    }
    __syncthreads();
  }
  if (k > N || j > N) return;
  un[at(i, j, k)] = (u[at(i - 1, j, k)] + u[at(i + 1, j, k)] + u[at(i, j - 1, k)] +
                     u[at(i, j + 1, k)] + u[at(i, j, k - 1)] + u[at(i, j, k + 1)]) / 6.0;
}

__global__ void copy_back(double* __restrict__ u, const double* __restrict__ un) {
  int k = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
  int i = blockIdx.z + 1;
  if (k > N || j > N) return;
  u[at(i, j, k)] = un[at(i, j, k)];
}

// periodic along dim 0: ghost plane 0 <- plane N, ghost plane N+1 <- plane 1;
// each block then bumps *cnt (release).
__global__ void exchange(double* u, unsigned* cnt) {
  int nb = gridDim.x, b = blockIdx.x;
  for (int t = b * blockDim.x + threadIdx.x; t < 2 * N * N; t += nb * blockDim.x) {
    int f = t / (N * N), r = t % (N * N);
    int j = r / N + 1, k = r % N + 1;
    if (f == 0) u[at(0, j, k)] = u[at(N, j, k)];
    else u[at(N + 1, j, k)] = u[at(1, j, k)];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(cnt, 1u);
  }
}

__global__ void reset(unsigned* cnt) { *cnt = 0; }

enum Shape { PLAIN, SERIAL, OVERLAP, GATED, GATED_NOROT, UPD, CPY };
static const char* names[] = {"plain", "serial", "overlap", "gated", "gated-norot", "update", "copy"};

int main(int argc, char** argv) {
  int steps = 8, blocks = 21, per = 8, xblocks = argc > 1 ? atoi(argv[1]) : 17;
  if (argc > 2) {   // a few plain launches for a profiler
    size_t b = (size_t)P * P * P * sizeof(double);
    double *a, *c; CK(cudaMalloc(&a, b)); CK(cudaMalloc(&c, b)); CK(cudaMemset(a, 0, b)); CK(cudaMemset(c, 0, b));
    dim3 t(32, 8), f((N + 31) / 32, (N + 7) / 8, N);
    for (int r = 0; r < 3; ++r) { update<<<f, t>>>(a, c, 1, N, 0, nullptr, 0); copy_back<<<f, t>>>(a, c); }
    CK(cudaDeviceSynchronize());
    return 0;
  }
  size_t bytes = (size_t)P * P * P * sizeof(double);
  double *u, *un;
  unsigned* cnt;
  CK(cudaMalloc(&u, bytes)); CK(cudaMalloc(&un, bytes)); CK(cudaMalloc(&cnt, 4));
  std::vector<double> h((size_t)P * P * P);
  for (size_t x = 0; x < h.size(); ++x) h[x] = (double)((x * 2654435761u) % 1000) / 1000.0;
  cudaStream_t s0, s1;
  CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  cudaEvent_t fork[64], join[64], e0, e1;
  for (int q = 0; q < 64; ++q) { CK(cudaEventCreateWithFlags(&fork[q], cudaEventDisableTiming)); CK(cudaEventCreateWithFlags(&join[q], cudaEventDisableTiming)); }
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  dim3 tb(32, 8), full((N + 31) / 32, (N + 7) / 8, N);
  std::vector<double> ref;
  for (int shape = PLAIN; shape <= CPY; ++shape) {
    CK(cudaMemcpy(u, h.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(un, h.data(), bytes, cudaMemcpyHostToDevice));
    cudaGraph_t g; cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    if (shape >= GATED) reset<<<1, 1, 0, s0>>>(cnt);
    for (int s = 0; s < steps; ++s) {
      if (shape == UPD) {
        update<<<full, tb, 0, s0>>>(u, un, 1, N, 0, nullptr, 0);
        continue;
      } else if (shape == CPY) {
        copy_back<<<full, tb, 0, s0>>>(u, un);
        continue;
      } else if (shape == PLAIN) {
        update<<<full, tb, 0, s0>>>(u, un, 1, N, 0, nullptr, 0);
      } else if (shape == SERIAL) {
        exchange<<<xblocks, 256, 0, s0>>>(u, cnt);
        update<<<full, tb, 0, s0>>>(u, un, 1, N, 0, nullptr, 0);
      } else if (shape == OVERLAP) {
        CK(cudaEventRecord(fork[s], s0)); CK(cudaStreamWaitEvent(s1, fork[s]));
        exchange<<<xblocks, 256, 0, s1>>>(u, cnt);
        dim3 in(full.x, full.y, N - 2);
        update<<<in, tb, 0, s0>>>(u, un, 2, N - 2, 0, nullptr, 0);
        CK(cudaEventRecord(join[s], s1)); CK(cudaStreamWaitEvent(s0, join[s]));
        dim3 one(full.x, full.y, 1);
        update<<<one, tb, 0, s0>>>(u, un, 1, 1, 0, nullptr, 0);
        update<<<one, tb, 0, s0>>>(u, un, N, 1, 0, nullptr, 0);
      } else {
        CK(cudaEventRecord(fork[s], s0)); CK(cudaStreamWaitEvent(s1, fork[s]));
        exchange<<<xblocks, 256, 0, s1>>>(u, cnt);
        update<<<full, tb, 0, s0>>>(u, un, 1, N, shape == GATED, cnt, (unsigned)((s + 1) * xblocks));
        CK(cudaEventRecord(join[s], s1)); CK(cudaStreamWaitEvent(s0, join[s]));
      }
      copy_back<<<full, tb, 0, s0>>>(u, un);
    }
    CK(cudaStreamEndCapture(s0, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int w = 0; w < 3; ++w) CK(cudaGraphLaunch(ge, s0));
    CK(cudaStreamSynchronize(s0));
    std::vector<double> t;
    for (int b = 0; b < blocks; ++b) {
      CK(cudaEventRecord(e0, s0));
      for (int r = 0; r < per; ++r) CK(cudaGraphLaunch(ge, s0));
      CK(cudaEventRecord(e1, s0));
      CK(cudaEventSynchronize(e1));
      float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
      t.push_back(ms * 1000.0 / (per * steps));
    }
    std::sort(t.begin(), t.end());
    // check: same number of steps from the same start gives the same field
    CK(cudaMemcpy(u, h.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(un, h.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaGraphLaunch(ge, s0)); CK(cudaGraphLaunch(ge, s0));
    CK(cudaStreamSynchronize(s0));
    std::vector<double> out(h.size());
    CK(cudaMemcpy(out.data(), u, bytes, cudaMemcpyDeviceToHost));
    const char* same = "";
    if (shape == SERIAL) ref = out;
    else if (shape > SERIAL && shape < UPD) same = out == ref ? " bitwise==serial" : " DIFFERS from serial";
    printf("%-12s xblocks %2d  us/step median %.2f  min %.2f  max %.2f%s\n", names[shape], xblocks,
           t[t.size() / 2], t.front(), t.back(), same);
    CK(cudaGraphExecDestroy(ge)); CK(cudaGraphDestroy(g));
  }
  return 0;
}
