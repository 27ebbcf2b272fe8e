// nvshmem_probe.cu - halo face exchange between two GPUs three ways, in one
// process per GPU (bench/mpi/nvshmem_probe.py drives it under mpirun; issue 25):
//   nccl     ncclSend/ncclRecv in a group on a stream (what pykokkos.mpi.Halo does)
//   shmem    NVSHMEM put issued by the host on a stream, then a barrier on it
//   device   NVSHMEM put issued by the GPU (each block puts its chunk,
//            nvshmemx_double_put_nbi_block), then a barrier on the stream
// Every exchange is checked (the peer's values arrive). Built with
// relocatable device code against the image's nvidia-nvshmem-cu13 and
// nvidia-nccl-cu13 packages (scripts/gpu/nvshmem_cuda.sh); bootstrapped with
// unique ids broadcast by mpi4py, not NVSHMEM's MPI plugin.
#include <cuda_runtime.h>
#include <nccl.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int fail(char *err, int len, const char *what, const char *why) {
  snprintf(err, static_cast<size_t>(len), "%s: %s", what, why);
  return 1;
}

#define CU(x) \
  do { cudaError_t e_ = (x); if (e_ != cudaSuccess) return fail(err, errlen, #x, cudaGetErrorString(e_)); } while (0)
#define NC(x) \
  do { ncclResult_t r_ = (x); if (r_ != ncclSuccess) return fail(err, errlen, #x, ncclGetErrorString(r_)); } while (0)

__global__ void fill(double *a, long n, double base) {
  long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = base + static_cast<double>(i);
}

__global__ void count_wrong(const double *a, long n, double base, int *wrong) {
  long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n && a[i] != base + static_cast<double>(i)) atomicAdd(wrong, 1);
}

// GPU-initiated: block b puts elements [b*chunk, (b+1)*chunk) to the peer.
__global__ void put_blocks(double *dst, const double *src, long n, long chunk, int peer) {
  long lo = blockIdx.x * chunk;
  long m = n - lo < chunk ? n - lo : chunk;
  if (m > 0) nvshmemx_double_put_nbi_block(dst + lo, src + lo, static_cast<size_t>(m), peer);
}

struct state {
  int rank = 0, npes = 0, peer = 0;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  double *send = nullptr, *recv = nullptr; // symmetric (nvshmem_malloc)
};
state S;

}  // namespace

extern "C" int probe_uid_sizes(int *nv, int *nc) {
  *nv = static_cast<int>(sizeof(nvshmemx_uniqueid_t));
  *nc = static_cast<int>(sizeof(ncclUniqueId));
  return 0;
}

extern "C" int probe_make_uids(unsigned char *nv, unsigned char *nc, char *err, int errlen) {
  nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
  if (nvshmemx_get_uniqueid(&id) != 0) return fail(err, errlen, "nvshmemx_get_uniqueid", "failed");
  memcpy(nv, &id, sizeof id);
  ncclUniqueId u;
  NC(ncclGetUniqueId(&u));
  memcpy(nc, &u, sizeof u);
  return 0;
}

// Binds GPU (rank % devices), starts NVSHMEM and NCCL, allocates 2 x n doubles.
extern "C" int probe_init(const unsigned char *nv, const unsigned char *nc, int rank, int npes,
                          long n, char *err, int errlen) {
  int ndev = 0;
  CU(cudaGetDeviceCount(&ndev));
  CU(cudaSetDevice(rank % ndev));
  nvshmemx_uniqueid_t id;
  memcpy(&id, nv, sizeof id);
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  if (nvshmemx_set_attr_uniqueid_args(rank, npes, &id, &attr) != 0)
    return fail(err, errlen, "nvshmemx_set_attr_uniqueid_args", "failed");
  if (nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr) != 0)
    return fail(err, errlen, "nvshmemx_init_attr(UNIQUEID)", "failed");
  S.rank = nvshmem_my_pe();
  S.npes = nvshmem_n_pes();
  S.peer = (S.rank + 1) % S.npes;
  ncclUniqueId u;
  memcpy(&u, nc, sizeof u);
  NC(ncclCommInitRank(&S.comm, npes, u, rank));
  CU(cudaStreamCreateWithFlags(&S.stream, cudaStreamNonBlocking));
  S.send = static_cast<double *>(nvshmem_malloc(static_cast<size_t>(n) * sizeof(double)));
  S.recv = static_cast<double *>(nvshmem_malloc(static_cast<size_t>(n) * sizeof(double)));
  if (!S.send || !S.recv) return fail(err, errlen, "nvshmem_malloc", "out of symmetric heap");
  return 0;
}

// One exchange of n doubles with the peer by method (0 nccl, 1 shmem, 2 device).
static int exchange(int method, long n, char *err, int errlen) {
  if (method == 0) {
    NC(ncclGroupStart());
    NC(ncclSend(S.send, static_cast<size_t>(n), ncclDouble, S.peer, S.comm, S.stream));
    NC(ncclRecv(S.recv, static_cast<size_t>(n), ncclDouble, (S.rank + S.npes - 1) % S.npes, S.comm,
                S.stream));
    NC(ncclGroupEnd());
  } else if (method == 1) {
    nvshmemx_double_put_on_stream(S.recv, S.send, static_cast<size_t>(n), S.peer, S.stream);
    nvshmemx_barrier_all_on_stream(S.stream);
  } else {
    long chunk = 4096, blocks = (n + chunk - 1) / chunk;
    put_blocks<<<static_cast<unsigned>(blocks), 256, 0, S.stream>>>(S.recv, S.send, n, chunk, S.peer);
    CU(cudaGetLastError());
    nvshmemx_barrier_all_on_stream(S.stream);
  }
  return 0;
}

// Times `reps` exchanges of n doubles by method in `blocks` timed blocks
// (after 5 untimed): *ms = the median block's time per exchange; *wrong =
// elements that did not arrive as the peer sent them (checked once).
extern "C" int probe_time(int method, long n, int reps, int blocks, double *ms, int *wrong,
                          char *err, int errlen) {
  unsigned g = static_cast<unsigned>((n + 255) / 256);
  int from = (S.rank + S.npes - 1) % S.npes;
  fill<<<g, 256, 0, S.stream>>>(S.send, n, 1e6 * (S.rank + 1) + method);
  CU(cudaMemsetAsync(S.recv, 0, static_cast<size_t>(n) * sizeof(double), S.stream));
  nvshmemx_barrier_all_on_stream(S.stream);
  for (int i = 0; i < 5; i++)
    if (exchange(method, n, err, errlen)) return 1;
  int *dw = nullptr;
  CU(cudaMalloc(&dw, sizeof(int)));
  CU(cudaMemsetAsync(dw, 0, sizeof(int), S.stream));
  count_wrong<<<g, 256, 0, S.stream>>>(S.recv, n, 1e6 * (from + 1) + method, dw);
  CU(cudaMemcpyAsync(wrong, dw, sizeof(int), cudaMemcpyDeviceToHost, S.stream));
  CU(cudaStreamSynchronize(S.stream));
  CU(cudaFree(dw));
  cudaEvent_t a, b;
  CU(cudaEventCreate(&a));
  CU(cudaEventCreate(&b));
  std::vector<double> t;
  for (int k = 0; k < blocks; k++) {
    nvshmemx_barrier_all_on_stream(S.stream);
    CU(cudaEventRecord(a, S.stream));
    for (int i = 0; i < reps; i++)
      if (exchange(method, n, err, errlen)) return 1;
    CU(cudaEventRecord(b, S.stream));
    CU(cudaEventSynchronize(b));
    float f = 0;
    CU(cudaEventElapsedTime(&f, a, b));
    t.push_back(static_cast<double>(f) / reps);
  }
  std::sort(t.begin(), t.end());
  *ms = t[t.size() / 2];
  CU(cudaEventDestroy(a));
  CU(cudaEventDestroy(b));
  return 0;
}

extern "C" int probe_finish(char *err, int errlen) {
  CU(cudaStreamSynchronize(S.stream));
  nvshmem_free(S.send);
  nvshmem_free(S.recv);
  NC(ncclCommDestroy(S.comm));
  nvshmem_finalize();
  return 0;
}
