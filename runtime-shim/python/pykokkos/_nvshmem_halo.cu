// _nvshmem_halo.cu - the NVSHMEM side of pykokkos.mpi.Halo's "nvshmem"
// transport (issue 25; the GPU-initiated exchange of the autonomous
// multi-GPU seed). pykokkos/_nvshmem.py builds it once per toolchain with
// relocatable device code against the nvidia-nvshmem package and calls it
// through ctypes. Faces travel as follows, all in stream order, no host wait:
//   - where the neighbour's GPU is reachable by loads and stores (NVLink or
//     PCIe peer access: nvshmem_ptr is not null), the face packing kernel
//     (pkc's, pykokkos/_halo_kernels.py) stores the face straight into the
//     neighbour's receive buffer in the symmetric heap; then signal_faces
//     sets the neighbour's flag for that buffer;
//   - otherwise the face is packed into a local symmetric buffer and
//     put_faces sends it with a put-with-signal (one block per face);
//   - the receiver's wait_faces spins on its flags until the values of this
//     exchange arrive; the unpacking kernels run after it.
// Flags carry the exchange count (signal set to count + 1, waited for with
// >=), and every face has two receive buffers used in turn, so a neighbour
// one exchange ahead never overwrites a face not yet unpacked.
// Errors: every function returns 0 or 1 and writes why into err.
#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

constexpr int kMaxFaces = 6;   // two per dimension of a rank-3 View

// The faces of one exchange step, passed by value to one kernel launch.
struct Faces {
  int n;
  uint64_t *sig[kMaxFaces];    // the flag (symmetric address)
  uint64_t value[kMaxFaces];   // the value that says "this exchange's face"
  int pe[kMaxFaces];           // the neighbour (put and signal only)
  void *dst[kMaxFaces];        // put only: the neighbour's receive buffer (symmetric)
  const void *src[kMaxFaces];  // put only: the packed face here (symmetric)
  size_t bytes[kMaxFaces];
};

int fail(char *err, int len, const char *what, const char *why) {
  snprintf(err, static_cast<size_t>(len), "%s: %s", what, why);
  return 1;
}

int launched(char *err, int len, const char *what) {
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? 0 : fail(err, len, what, cudaGetErrorString(e));
}

// The packing kernels before this one on the stream stored the faces into
// the neighbours' buffers; their grid completed, so the stores are done.
__global__ void signal_faces(Faces f) {
  __threadfence_system();
  for (int k = 0; k < f.n; k++)
    nvshmemx_signal_op(f.sig[k], f.value[k], NVSHMEM_SIGNAL_SET, f.pe[k]);
}

__global__ void wait_faces(Faces f) {
  for (int k = 0; k < f.n; k++) nvshmem_signal_wait_until(f.sig[k], NVSHMEM_CMP_GE, f.value[k]);
}

// Block k sends face k and then sets its flag (data before signal).
__global__ void put_faces(Faces f) {
  int k = static_cast<int>(blockIdx.x);
  nvshmemx_putmem_signal_block(f.dst[k], f.src[k], f.bytes[k], f.sig[k], f.value[k],
                               NVSHMEM_SIGNAL_SET, f.pe[k]);
}

int faces(int n, Faces *f, char *err, int errlen) {
  if (n < 0 || n > kMaxFaces) return fail(err, errlen, "pkc_shmem", "at most 6 faces per call");
  memset(f, 0, sizeof *f);
  f->n = n;
  return 0;
}

}  // namespace

// Bytes of an NVSHMEM unique id (rank 0 makes it, MPI broadcasts it).
extern "C" int pkc_shmem_uid_size(void) { return static_cast<int>(sizeof(nvshmemx_uniqueid_t)); }

extern "C" int pkc_shmem_make_uid(unsigned char *uid, char *err, int errlen) {
  nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
  if (nvshmemx_get_uniqueid(&id) != 0) return fail(err, errlen, "nvshmemx_get_uniqueid", "failed");
  memcpy(uid, &id, sizeof id);
  return 0;
}

// Starts NVSHMEM as PE `pe` of `npes` on the current CUDA device (the one
// Kokkos runs on), from the unique id every PE got; collective.
extern "C" int pkc_shmem_init(const unsigned char *uid, int pe, int npes, char *err, int errlen) {
  nvshmemx_uniqueid_t id;
  memcpy(&id, uid, sizeof id);
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  if (nvshmemx_set_attr_uniqueid_args(pe, npes, &id, &attr) != 0)
    return fail(err, errlen, "nvshmemx_set_attr_uniqueid_args", "failed");
  if (nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr) != 0)
    return fail(err, errlen, "nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID)", "failed");
  if (nvshmem_my_pe() != pe || nvshmem_n_pes() != npes)
    return fail(err, errlen, "nvshmemx_init_attr", "the PE numbering is not MPI's");
  return 0;
}

// Zeroed symmetric memory (collective: every PE asks for the same bytes);
// null when the symmetric heap is too small (NVSHMEM_SYMMETRIC_SIZE).
extern "C" void *pkc_shmem_calloc(size_t bytes) {
  void *p = nvshmem_malloc(bytes);
  if (p && cudaMemset(p, 0, bytes) != cudaSuccess) return nullptr;
  if (p && cudaDeviceSynchronize() != cudaSuccess) return nullptr;
  nvshmem_barrier_all();   // every PE's memory zeroed before any signals it
  return p;
}

// The address by which this GPU's kernels load and store `pe`'s copy of the
// symmetric object at addr, or null when they cannot (then puts are needed).
extern "C" void *pkc_shmem_ptr(void *addr, int pe) { return nvshmem_ptr(addr, pe); }

// Sets flag sig[k] of PE pe[k] to value[k], k < n, after the work before on stream.
extern "C" int pkc_shmem_signal(int n, uint64_t **sig, const uint64_t *value, const int *pe,
                                void *stream, char *err, int errlen) {
  Faces f;
  if (faces(n, &f, err, errlen)) return 1;
  for (int k = 0; k < n; k++) f.sig[k] = sig[k], f.value[k] = value[k], f.pe[k] = pe[k];
  signal_faces<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(f);
  return launched(err, errlen, "signal_faces");
}

// Makes stream wait until every local flag sig[k] >= value[k], k < n.
extern "C" int pkc_shmem_wait(int n, uint64_t **sig, const uint64_t *value, void *stream,
                              char *err, int errlen) {
  Faces f;
  if (faces(n, &f, err, errlen)) return 1;
  for (int k = 0; k < n; k++) f.sig[k] = sig[k], f.value[k] = value[k];
  wait_faces<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(f);
  return launched(err, errlen, "wait_faces");
}

// Puts bytes[k] from src[k] (local, symmetric) to dst[k] on PE pe[k], then
// sets its flag sig[k] to value[k]; k < n, in stream order.
extern "C" int pkc_shmem_put_signal(int n, void **dst, void **src, const size_t *bytes,
                                    uint64_t **sig, const uint64_t *value, const int *pe,
                                    void *stream, char *err, int errlen) {
  Faces f;
  if (faces(n, &f, err, errlen)) return 1;
  if (n == 0) return 0;
  for (int k = 0; k < n; k++) {
    f.dst[k] = dst[k], f.src[k] = src[k], f.bytes[k] = bytes[k];
    f.sig[k] = sig[k], f.value[k] = value[k], f.pe[k] = pe[k];
  }
  put_faces<<<static_cast<unsigned>(n), 256, 0, static_cast<cudaStream_t>(stream)>>>(f);
  return launched(err, errlen, "put_faces");
}

// Ends NVSHMEM (collective; frees the symmetric heap). Called at exit.
extern "C" void pkc_shmem_finalize(void) { nvshmem_finalize(); }
