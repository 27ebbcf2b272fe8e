// _nvshmem_halo.cu - the NVSHMEM side of pykokkos.mpi.Halo's "nvshmem"
// transport (issue 25; the GPU-initiated exchange of the autonomous
// multi-GPU seed). pykokkos/_nvshmem.py builds it once per toolchain with
// relocatable device code against the nvidia-nvshmem package and calls it
// through ctypes. A face travels in stream order, with no host wait and no
// value the host must supply, so a pk.Graph step captures it whole:
//   sender    ready_faces: wait until the neighbour has unpacked every face
//             sent into this buffer before (its "freed" flag here);
//             the packing kernel (pkc's, pykokkos/_halo_kernels.py) stores the
//             face straight into the neighbour's receive buffer in the
//             symmetric heap where this GPU can address it (nvshmem_ptr not
//             null: NVLink or PCIe peers), else packs it here and put_faces
//             sends it with a put-with-signal (one block per face);
//             signal_faces: count the face sent and set the neighbour's
//             "arrived" flag to that count;
//   receiver  wait_faces: count the face expected and wait until "arrived"
//             reaches it; the unpacking kernel; free_faces: set the sender's
//             "freed" flag to the count unpacked.
// Counts live in device memory (one per face buffer and direction), so the
// kernels need no argument that changes from one exchange to the next.
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
  uint64_t *flag[kMaxFaces];   // the flag to set (symmetric, on pe) or to wait on (here)
  uint64_t *count[kMaxFaces];  // this GPU's count for that face buffer (device memory)
  int pe[kMaxFaces];           // the neighbour (signal, put, free)
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

// Sender, before packing: the neighbour freed the buffer (freed >= sent).
__global__ void ready_faces(Faces f) {
  for (int k = 0; k < f.n; k++) nvshmem_signal_wait_until(f.flag[k], NVSHMEM_CMP_GE, *f.count[k]);
}

// Sender, after the packing kernels stored the faces into the neighbours'
// buffers (their grids completed, so the stores are done): count, signal.
__global__ void signal_faces(Faces f) {
  __threadfence_system();
  for (int k = 0; k < f.n; k++)
    nvshmemx_signal_op(f.flag[k], ++*f.count[k], NVSHMEM_SIGNAL_SET, f.pe[k]);
}

// Sender, faces packed here: block k puts face k, then its flag (data first).
__global__ void put_faces(Faces f) {
  int k = static_cast<int>(blockIdx.x);
  uint64_t next = *f.count[k] + 1;
  __syncthreads();
  nvshmemx_putmem_signal_block(f.dst[k], f.src[k], f.bytes[k], f.flag[k], next,
                               NVSHMEM_SIGNAL_SET, f.pe[k]);
  if (threadIdx.x == 0) *f.count[k] = next;
}

// Receiver, before unpacking: the next face arrived (arrived >= ++got).
__global__ void wait_faces(Faces f) {
  for (int k = 0; k < f.n; k++) nvshmem_signal_wait_until(f.flag[k], NVSHMEM_CMP_GE, ++*f.count[k]);
}

// Receiver, after the unpacking kernels: the sender may refill the buffer.
__global__ void free_faces(Faces f) {
  for (int k = 0; k < f.n; k++)
    nvshmemx_signal_op(f.flag[k], *f.count[k], NVSHMEM_SIGNAL_SET, f.pe[k]);
}

int faces(int n, uint64_t **flag, uint64_t **count, const int *pe, Faces *f, char *err,
          int errlen) {
  if (n < 1 || n > kMaxFaces) return fail(err, errlen, "pkc_shmem", "1 to 6 faces per call");
  memset(f, 0, sizeof *f);
  f->n = n;
  for (int k = 0; k < n; k++) {
    f->flag[k] = flag[k];
    f->count[k] = count[k];
    f->pe[k] = pe ? pe[k] : -1;
  }
  return 0;
}

using Kernel = void (*)(Faces);

int launch(Kernel kernel, const char *what, int n, uint64_t **flag, uint64_t **count,
           const int *pe, void *stream, char *err, int errlen) {
  Faces f;
  if (faces(n, flag, count, pe, &f, err, errlen)) return 1;
  kernel<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(f);
  return launched(err, errlen, what);
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

// The five steps of the header, queued on stream for n faces (1 to 6):
// flag[k] is the flag (freed, arrived, or the neighbour's), count[k] this
// GPU's count for face k's buffer, pe[k] the neighbour.
extern "C" int pkc_shmem_ready(int n, uint64_t **freed, uint64_t **sent, void *stream,
                               char *err, int errlen) {
  return launch(ready_faces, "ready_faces", n, freed, sent, nullptr, stream, err, errlen);
}

extern "C" int pkc_shmem_signal(int n, uint64_t **arrived, uint64_t **sent, const int *pe,
                                void *stream, char *err, int errlen) {
  return launch(signal_faces, "signal_faces", n, arrived, sent, pe, stream, err, errlen);
}

extern "C" int pkc_shmem_wait(int n, uint64_t **arrived, uint64_t **got, void *stream,
                              char *err, int errlen) {
  return launch(wait_faces, "wait_faces", n, arrived, got, nullptr, stream, err, errlen);
}

extern "C" int pkc_shmem_free(int n, uint64_t **freed, uint64_t **got, const int *pe,
                              void *stream, char *err, int errlen) {
  return launch(free_faces, "free_faces", n, freed, got, pe, stream, err, errlen);
}

// Puts bytes[k] from src[k] (packed here, symmetric) to dst[k] on PE pe[k]
// with its arrived flag, counting in sent[k]; in stream order.
extern "C" int pkc_shmem_put_signal(int n, void **dst, void **src, const size_t *bytes,
                                    uint64_t **arrived, uint64_t **sent, const int *pe,
                                    void *stream, char *err, int errlen) {
  Faces f;
  if (faces(n, arrived, sent, pe, &f, err, errlen)) return 1;
  for (int k = 0; k < n; k++) f.dst[k] = dst[k], f.src[k] = src[k], f.bytes[k] = bytes[k];
  put_faces<<<static_cast<unsigned>(n), 256, 0, static_cast<cudaStream_t>(stream)>>>(f);
  return launched(err, errlen, "put_faces");
}

// Ends NVSHMEM (collective; frees the symmetric heap). Called at exit.
extern "C" void pkc_shmem_finalize(void) { nvshmem_finalize(); }
