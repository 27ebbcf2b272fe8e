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
// exchange_faces does all of it for one dimension, or for every dimension's
// owned-cell faces, in one kernel (the seed's fused exchange): every block
// waits for the buffers to be free, packs its share of the faces straight
// from the View into the neighbours' buffers, the last block to finish
// raises the flags, every block waits for the neighbours' faces and unpacks
// its share, and the last block frees the neighbours' buffers.
// exchange_direct skips the buffers where every rank could map its
// neighbours' Views (CUDA IPC, one host): each block stores its share of the
// faces straight into the neighbours' ghost cells once they said those may
// be written, and the last block raises their flags and waits for this
// View's faces (three neighbour latencies instead of five: 8.7 against 10.4
// us for a 128x128 face each way between two H200s). Both kernels run on a
// small grid (an eighth of the SMs by default), never more than the GPU
// holds at once (the blocks wait for each other through the neighbours).
// send_direct is exchange_direct's sending half alone, for a pk.Graph step
// whose readers of the ghosts wait for a count the neighbours raise.
// The separate kernels and exchange_faces use the same flags and counts,
// so neighbours may mix them; exchange_direct is taken by every rank or by
// none (pykokkos/mpi.py decides it collectively).
// Errors: every function returns 0 or 1 and writes why into err.
#include <cuda.h>
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

// Launches kernel(arg) on stream at the device's greatest stream priority:
// the exchange is on the critical path of a step, and where a pk.Graph step
// runs it as a branch beside a large update (graphs instantiated with node
// priorities, libpkcrt), its blocks are scheduled before the update's
// remaining ones instead of after them.
template <class Arg>
cudaError_t launch_urgent(void (*kernel)(Arg), unsigned blocks, unsigned threads,
                          void *stream, Arg arg) {
  int least = 0, greatest = 0;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributePriority;
  at[0].val.priority = greatest;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(threads);
  cfg.stream = static_cast<cudaStream_t>(stream);
  cfg.attrs = at;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, kernel, arg);
}

int launch(Kernel kernel, const char *what, int n, uint64_t **flag, uint64_t **count,
           const int *pe, void *stream, char *err, int errlen) {
  Faces f;
  if (faces(n, flag, count, pe, &f, err, errlen)) return 1;
  launch_urgent(kernel, 1, 1, stream, f);
  return launched(err, errlen, what);
}

// The faces of exchange_faces: up to six sends and six receives of boxes of
// the View (corner lo, extents n; element strides of the View): one
// dimension's faces, or, for start() (owned cells only, no corners, so the
// dimensions do not depend on each other), every dimension's.
struct Exchange {
  void *view;
  long stride[3];
  int rank;
  int order[3];                 // the View's dimensions, largest stride first
  int nsend, nrecv;
  long slo[kMaxFaces][3], sn[kMaxFaces][3];  // send boxes
  void *remote[kMaxFaces];      // the neighbours' receive buffers, as this GPU stores to them
  uint64_t *arrived[kMaxFaces]; // their arrived flags (symmetric)
  uint64_t *freed_here[kMaxFaces];  // this GPU's freed flags for those buffers
  uint64_t *sent[kMaxFaces];
  int dst[kMaxFaces];
  long rlo[kMaxFaces][3], rn[kMaxFaces][3];  // receive boxes
  void *local[kMaxFaces];       // this GPU's receive buffers
  uint64_t *arrived_here[kMaxFaces];
  uint64_t *freed[kMaxFaces];   // the senders' freed flags (symmetric)
  uint64_t *got[kMaxFaces];
  int src[kMaxFaces];
  unsigned *done;               // two block counters (device memory, zero between calls)
  unsigned *epoch;              // exchanges completed here (pkc_shmem_exchange's done)
  // direct: each send box goes straight into the neighbour's View (mapped
  // here by CUDA IPC) at corner plo, element strides pstride; no buffers
  void *peer_view[kMaxFaces];
  long plo[kMaxFaces][3], pstride[kMaxFaces][3];
  // send-only (send_direct): the neighbours' counts of exchanges completed
  // (their `epoch`, mapped here), raised once a face is stored there
  unsigned *peer_epoch[kMaxFaces];
};

__device__ long box_size(const long *n, int rank) {
  long m = 1;
  for (int k = 0; k < rank; k++) m *= n[k];
  return m;
}

// Offset in the View of element e of the box at lo with extents n, the box
// taken in the View's memory order (smallest stride fastest), so that
// neighbouring threads touch neighbouring elements in any layout; sender
// and receiver agree because every rank's View has the same layout.
// 32-bit unsigned divisions (a box holds fewer than 2^32 elements): 64-bit
// ones are long subroutines, and they made the copies compute-bound.
// stride: the element strides of the View the box is in.
__device__ long box_offset(const Exchange &x, const long *lo, const long *n, unsigned e,
                           const long *stride) {
  long off = 0;
  for (int i = x.rank - 1; i > 0; i--) {
    int k = x.order[i];
    unsigned nk = static_cast<unsigned>(n[k]), q = e / nk;
    off += (lo[k] + (e - q * nk)) * stride[k];
    e = q;
  }
  return off + (lo[x.order[0]] + e) * stride[x.order[0]];
}

// Block-level: true in the block that arrives last at counter c (which is
// reset). The block's stores (to a neighbour too) are ordered before the count
// by the barrier and one system-scope fence of thread 0, which is cumulative
// (PTX memory model; the pattern of cooperative groups' grid sync).
// n: the blocks that count at c (default: the grid).
__device__ bool last_block(unsigned *c, unsigned n = 0) {
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence_system();
    last = atomicAdd(c, 1u) == (n ? n : gridDim.x) - 1;
    if (last) atomicExch(c, 0u);
  }
  __syncthreads();
  return last;
}

// This thread's elements of a box of the View into a buffer (out = true) or
// back: the loads of a few elements issued before their stores.
template <class T, bool out>
__device__ void copy_box(const Exchange &x, T *__restrict__ v, T *__restrict__ buf,
                         const long *lo, const long *n) {
  constexpr int kBatch = 4;
  unsigned m = static_cast<unsigned>(box_size(n, x.rank));
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned step = gridDim.x * blockDim.x;
  for (unsigned e0 = tid; e0 < m; e0 += kBatch * step) {
    T val[kBatch];
    long at[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; b++) {
      unsigned e = e0 + b * step;
      at[b] = e < m ? box_offset(x, lo, n, e, x.stride) : -1;
      if (at[b] >= 0) val[b] = out ? v[at[b]] : __ldcg(buf + e);
    }
#pragma unroll
    for (int b = 0; b < kBatch; b++) {
      if (at[b] < 0) continue;
      if (out) buf[e0 + b * step] = val[b];
      else v[at[b]] = val[b];
    }
  }
}

// This thread's elements of send box f into the neighbour's View, the
// box shared by `blocks` blocks of which this is block `b`: element e has
// the same place in both boxes (the same decomposition of e), so the two
// Views' layouts need not agree.
template <class T>
__device__ void copy_to_peer(const Exchange &x, const T *__restrict__ v, int f, unsigned b,
                             unsigned blocks) {
  constexpr int kBatch = 4;
  T *__restrict__ peer = static_cast<T *>(x.peer_view[f]);
  unsigned m = static_cast<unsigned>(box_size(x.sn[f], x.rank));
  unsigned tid = b * blockDim.x + threadIdx.x;
  unsigned step = blocks * blockDim.x;
  for (unsigned e0 = tid; e0 < m; e0 += kBatch * step) {
    T val[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; b++)
      if (e0 + b * step < m) val[b] = v[box_offset(x, x.slo[f], x.sn[f], e0 + b * step, x.stride)];
#pragma unroll
    for (int b = 0; b < kBatch; b++)
      if (e0 + b * step < m)
        peer[box_offset(x, x.plo[f], x.sn[f], e0 + b * step, x.pstride[f])] = val[b];
  }
}

// The exchange is complete here (this View's ghosts written, by the
// neighbours or by this kernel's blocks, and seen by this thread): a release
// of the count that a gated launch beside it waits for (pkc_gate; the
// fence orders the ghost writes this thread has observed before the count).
__device__ void count_exchange(unsigned *epoch) {
  __threadfence();
  atomicAdd(epoch, 1u);
}

// Block 0 of a direct exchange tells the senders of this View's ghosts that
// they may be written (its kernels that read them came before in stream or
// graph order: freed = faces received + 1); counting: those faces are
// counted as received at once (++got: send_direct, where no kernel here
// waits for them).
__device__ void free_ghosts(const Exchange &x, bool counting) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  for (int f = 0; f < x.nrecv; f++) {
    nvshmemx_signal_op(x.freed[f], *x.got[f] + 1, NVSHMEM_SIGNAL_SET, x.src[f]);
    if (counting) ++*x.got[f];
  }
}

// Each send face has its own group of blocks (the grid is nsend groups of
// equal size, *groups of them): they wait until that neighbour said its
// ghosts may be written, store the face into its View, and the group's last
// block raises its arrived flag, so that one neighbour's face never waits
// for the other neighbour (on a line of ranks that wait had made every
// exchange last until the ranks two away started). Returns the face this
// block sent in when it is its group's last block (every thread), else -1.
// Counters: done[f] per face.
template <class T>
__device__ int send_faces(const Exchange &x, int *groups) {
  *groups = x.nsend > 0 ? x.nsend : 1;
  unsigned per = gridDim.x / *groups;
  int f = static_cast<int>(blockIdx.x / per);
  if (f >= x.nsend) return -1;
  if (threadIdx.x == 0)
    nvshmem_signal_wait_until(x.freed_here[f], NVSHMEM_CMP_GE, *x.sent[f] + 1);
  __syncthreads();
  copy_to_peer<T>(x, static_cast<const T *>(x.view), f, blockIdx.x % per, per);
  if (!last_block(&x.done[f], per)) return -1;
  if (threadIdx.x == 0)
    nvshmemx_signal_op(x.arrived[f], ++*x.sent[f], NVSHMEM_SIGNAL_SET, x.dst[f]);
  return f;
}

// The direct exchange: block 0 frees this View's ghosts, the groups send
// (send_faces), and the last group's last block then waits for this View's
// faces; the other blocks leave at once and free their SMs. Counter
// done[kMaxFaces] for the groups.
template <class T>
__global__ void exchange_direct(Exchange x) {
  free_ghosts(x, false);
  int groups;
  if (send_faces<T>(x, &groups) < 0 && x.nsend > 0) return;
  if (last_block(&x.done[kMaxFaces], static_cast<unsigned>(groups)) && threadIdx.x == 0) {
    for (int r = 0; r < x.nrecv; r++) {
      nvshmem_signal_wait_until(x.arrived_here[r], NVSHMEM_CMP_GE, *x.got[r] + 1);
      ++*x.got[r];
    }
    count_exchange(x.epoch);
  }
}

// The send half of the direct exchange, for a pk.Graph step whose
// launches that read the ghosts wait for a count the neighbours raise (a
// send-only exchange: no kernel here waits for the faces that come): block
// 0 frees the ghosts and counts their next faces as received already, so
// that the counts stay those of whole exchanges; each group's last block
// raises the neighbour's count of exchanges after its arrived flag (system
// scope, after the stores).
template <class T>
__global__ void send_direct(Exchange x) {
  free_ghosts(x, true);
  int groups;
  int f = send_faces<T>(x, &groups);
  if (f < 0 || threadIdx.x != 0) return;
  __threadfence_system();
  atomicAdd_system(x.peer_epoch[f], 1u);
}

template <class T>
__global__ void exchange_faces(Exchange x) {
  T *v = static_cast<T *>(x.view);
  if (threadIdx.x == 0)
    for (int f = 0; f < x.nsend; f++)
      nvshmem_signal_wait_until(x.freed_here[f], NVSHMEM_CMP_GE, *x.sent[f]);
  __syncthreads();
  for (int f = 0; f < x.nsend; f++)
    copy_box<T, true>(x, v, static_cast<T *>(x.remote[f]), x.slo[f], x.sn[f]);
  if (last_block(&x.done[0]) && threadIdx.x == 0)
    for (int f = 0; f < x.nsend; f++)
      nvshmemx_signal_op(x.arrived[f], ++*x.sent[f], NVSHMEM_SIGNAL_SET, x.dst[f]);
  if (threadIdx.x == 0)
    for (int f = 0; f < x.nrecv; f++)
      nvshmem_signal_wait_until(x.arrived_here[f], NVSHMEM_CMP_GE, *x.got[f] + 1);
  __syncthreads();
  for (int f = 0; f < x.nrecv; f++)
    copy_box<T, false>(x, v, static_cast<T *>(x.local[f]), x.rlo[f], x.rn[f]);
  if (last_block(&x.done[1]) && threadIdx.x == 0) {
    count_exchange(x.epoch);   // every block's unpacking ordered before by last_block
    for (int f = 0; f < x.nrecv; f++)
      nvshmemx_signal_op(x.freed[f], ++*x.got[f], NVSHMEM_SIGNAL_SET, x.src[f]);
  }
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
  launch_urgent(put_faces, static_cast<unsigned>(n), 256, stream, f);
  return launched(err, errlen, "put_faces");
}

// Queues exchange_faces on stream for one dimension's faces, or for every
// dimension's owned-cell faces (start()): itemsize 8 (double) or
// 4 (float); view: the View's device data, stride[rank] its element
// strides; nsend/nrecv faces (0 to 6 each), boxes as corner and extents
// (3 longs per face, row-major, rank used), the other arrays one entry per
// face as in the header; done: kMaxFaces + 3 unsigned counters (zeroed) in
// device memory, used by this call site only. peer_view null: faces travel
// through the receive buffers (exchange_faces); else the direct exchange
// (exchange_direct): peer_view[f] is send face f's neighbour's View as this
// GPU addresses it (pkc_ipc_open), plo its ghost box's corner there and
// pstride that View's element strides (3 longs per face); remote and the
// receive boxes are then unused. done[kMaxFaces + 2] counts the exchanges
// completed (pkc_shmem_gate_reset zeroes it). peer_epoch not null (with
// peer_view): only send (send_direct), peer_epoch[f] being send face f's
// neighbour's done[kMaxFaces + 2] as this GPU addresses it; the receive
// boxes are then unused too. blocks: the most thread blocks to
// run it on (0: an eighth of the SMs). Its blocks hold their SMs while they
// wait for the neighbours, so a small grid leaves the rest of the GPU to the
// update running beside it (64 blocks slowed a 128^3 update from 19.5 to
// 28.6 us on an H200).
extern "C" int pkc_shmem_exchange(int itemsize, void *view, const long *stride, int rank,
                                  int nsend, const long *slo, const long *sn, void **remote,
                                  uint64_t **arrived, uint64_t **freed_here, uint64_t **sent,
                                  const int *dst, int nrecv, const long *rlo, const long *rn,
                                  void **local, uint64_t **arrived_here, uint64_t **freed,
                                  uint64_t **got, const int *src, unsigned *done, int blocks,
                                  void **peer_view, const long *plo, const long *pstride,
                                  void **peer_epoch, void *stream, char *err, int errlen) {
  if (peer_epoch && !peer_view)
    return fail(err, errlen, "pkc_shmem_exchange", "a send-only exchange stores into the Views");
  if (rank < 1 || rank > 3 || nsend < 0 || nsend > kMaxFaces || nrecv < 0 ||
      nrecv > kMaxFaces || (itemsize != 8 && itemsize != 4))
    return fail(err, errlen, "pkc_shmem_exchange", "rank 1-3, 0-6 faces each way, float or double");
  for (int f = 0; f < nsend + nrecv; f++) {
    const long *n = f < nsend ? sn + 3 * f : rn + 3 * (f - nsend);
    long m = 1;
    for (int k = 0; k < rank; k++) m *= n[k];
    if (m < 0 || m > (1L << 31))
      return fail(err, errlen, "pkc_shmem_exchange", "a face of more than 2^31 elements");
  }
  Exchange x;
  memset(&x, 0, sizeof x);
  x.view = view, x.rank = rank, x.nsend = nsend, x.nrecv = nrecv, x.done = done;
  x.epoch = done + kMaxFaces + 2;
  long most = 0;
  for (int k = 0; k < rank; k++) x.stride[k] = stride[k], x.order[k] = k;
  for (int i = 1; i < rank; i++)   // insertion sort, largest stride first (stable)
    for (int j = i; j > 0 && stride[x.order[j]] > stride[x.order[j - 1]]; j--) {
      int t = x.order[j];
      x.order[j] = x.order[j - 1], x.order[j - 1] = t;
    }
  for (int f = 0; f < nsend; f++) {
    long m = 1;
    for (int k = 0; k < 3; k++) x.slo[f][k] = slo[3 * f + k], x.sn[f][k] = sn[3 * f + k];
    for (int k = 0; k < rank; k++) m *= sn[3 * f + k];
    most = m > most ? m : most;
    x.remote[f] = remote[f], x.arrived[f] = arrived[f], x.freed_here[f] = freed_here[f];
    x.sent[f] = sent[f], x.dst[f] = dst[f];
    if (peer_epoch) x.peer_epoch[f] = static_cast<unsigned *>(peer_epoch[f]);
    if (peer_view) {
      x.peer_view[f] = peer_view[f];
      for (int k = 0; k < 3; k++) x.plo[f][k] = plo[3 * f + k], x.pstride[f][k] = pstride[3 * f + k];
    }
  }
  for (int f = 0; f < nrecv; f++) {
    long m = 1;
    for (int k = 0; k < 3; k++) x.rlo[f][k] = rlo[3 * f + k], x.rn[f][k] = rn[3 * f + k];
    for (int k = 0; k < rank; k++) m *= rn[3 * f + k];
    if (!peer_view) most = m > most ? m : most;   // the direct exchange copies sends only
    x.local[f] = local[f], x.arrived_here[f] = arrived_here[f], x.freed[f] = freed[f];
    x.got[f] = got[f], x.src[f] = src[f];
  }
  const int threads = 256;
  int dev = 0, sms = 0, per_sm = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
    return fail(err, errlen, "pkc_shmem_exchange", "cannot query the device");
  void (*kernel)(Exchange) = peer_epoch ? (itemsize == 8 ? send_direct<double>
                                                          : send_direct<float>)
                             : peer_view ? (itemsize == 8 ? exchange_direct<double>
                                                          : exchange_direct<float>)
                                         : (itemsize == 8 ? exchange_faces<double>
                                                          : exchange_faces<float>);
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0);
  if (e != cudaSuccess) return fail(err, errlen, "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                                    cudaGetErrorString(e));
  long want = (most + threads - 1) / threads;
  long cap = static_cast<long>(sms) * (per_sm > 0 ? per_sm : 1);
  long most_blocks = blocks > 0 ? blocks : (sms + 7) / 8;
  cap = most_blocks < cap ? most_blocks : cap;
  unsigned grid = static_cast<unsigned>(want < 1 ? 1 : want < cap ? want : cap);
  if (peer_view && nsend > 0) {   // a group of blocks per send face, the same size each
    long per = (cap / nsend) < want ? cap / nsend : want;
    grid = static_cast<unsigned>((per < 1 ? 1 : per) * nsend);
  }
  launch_urgent(kernel, grid, threads, stream, x);
  return launched(err, errlen, peer_epoch  ? "send_direct"
                              : peer_view ? "exchange_direct"
                                          : "exchange_faces");
}

// Zeroes the count of exchanges completed at the call site whose counters
// are `done` (pkc_shmem_exchange), in stream order: a pk.Graph capture
// queues it before the first exchange of its steps, so that a launch gated
// on the k-th exchange of a replay waits for a count of k.
extern "C" int pkc_shmem_gate_reset(unsigned *done, void *stream, char *err, int errlen) {
  cudaError_t e = cudaMemsetAsync(done + kMaxFaces + 2, 0, sizeof *done,
                                  static_cast<cudaStream_t>(stream));
  return e == cudaSuccess ? 0 : fail(err, errlen, "cudaMemsetAsync", cudaGetErrorString(e));
}

// CUDA IPC of a View's device memory, for the direct exchange between
// ranks of one host. pkc_ipc_handle: the handle (pkc_ipc_handle_size bytes)
// of the allocation holding ptr and ptr's offset in it; pkc_ipc_open: that
// memory in this process (peer access enabled), plus offset, or null with
// err set. Mapped for the life of the process.
extern "C" int pkc_ipc_handle_size(void) { return static_cast<int>(sizeof(cudaIpcMemHandle_t)); }

extern "C" int pkc_ipc_handle(void *ptr, unsigned char *handle, size_t *offset, char *err,
                              int errlen) {
  CUdeviceptr base = 0;
  size_t size = 0;
  if (cuMemGetAddressRange(&base, &size, reinterpret_cast<CUdeviceptr>(ptr)) != CUDA_SUCCESS)
    return fail(err, errlen, "cuMemGetAddressRange", "not device memory");
  cudaIpcMemHandle_t h;
  cudaError_t e = cudaIpcGetMemHandle(&h, reinterpret_cast<void *>(base));
  if (e != cudaSuccess) return fail(err, errlen, "cudaIpcGetMemHandle", cudaGetErrorString(e));
  memcpy(handle, &h, sizeof h);
  *offset = reinterpret_cast<CUdeviceptr>(ptr) - base;
  return 0;
}

extern "C" void *pkc_ipc_open(const unsigned char *handle, size_t offset, char *err, int errlen) {
  cudaIpcMemHandle_t h;
  memcpy(&h, handle, sizeof h);
  void *p = nullptr;
  cudaError_t e = cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess);
  if (e != cudaSuccess) {
    cudaGetLastError();   // not sticky: the buffered exchange goes on
    fail(err, errlen, "cudaIpcOpenMemHandle", cudaGetErrorString(e));
    return nullptr;
  }
  return static_cast<char *>(p) + offset;
}

// Ends NVSHMEM (collective; frees the symmetric heap). Called at exit.
extern "C" void pkc_shmem_finalize(void) { nvshmem_finalize(); }
