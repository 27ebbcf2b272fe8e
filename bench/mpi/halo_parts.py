"""Where a halo exchange's device time goes (CUDA, NCCL path, 2+ ranks):
GPU time from CUDA events on the legacy default stream, median of 30, for
packing one face, the NCCL send/recv of it, unpacking it, and a whole
Halo.exchange(), on a 3-D View of (N+2)^3 doubles per rank split along
dimension 0. Run: mpirun -np 2 python3 bench/mpi/halo_parts.py [N]."""
import statistics
import sys

import cupy
import numpy as np
from mpi4py import MPI

import pykokkos as pk
from pykokkos.mpi import Halo, _nccl


def gpu_ms(fn, reps=30):
    """Median GPU milliseconds of fn() between two events on the legacy stream."""
    s = cupy.cuda.Stream.null
    out = []
    for _ in range(reps):
        a, b = cupy.cuda.Event(), cupy.cuda.Event()
        a.record(s)
        fn()
        b.record(s)
        b.synchronize()
        out.append(cupy.cuda.get_elapsed_time(a, b))
    return statistics.median(out)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 512
    comm = MPI.COMM_WORLD
    cart = comm.Create_cart([comm.Get_size(), 1, 1], periods=[False] * 3)
    u = pk.View([n + 2] * 3, pk.double)
    u[...] = np.full([n + 2] * 3, float(comm.Get_rank()))
    h = Halo(cart, u, width=1)
    h.exchange()
    pk.fence()
    lo, hi = h.nbr[0]
    side = "send_hi" if hi != MPI.PROC_NULL else "send_lo"
    rside = "recv_hi" if hi != MPI.PROC_NULL else "recv_lo"
    peer = hi if hi != MPI.PROC_NULL else lo
    sidx, ridx = h._slab(0, side, True), h._slab(0, rside, True)
    sbuf, rbuf = h._buffer(sidx, True), h._buffer(ridx, False)
    from cupy.cuda import nccl
    ncomm, own = _nccl(cart)

    def sendrecv(stream_ptr=0):
        nccl.groupStart()
        ncomm.send(sbuf._dev.ptr, sbuf.size, nccl.NCCL_FLOAT64, peer, stream_ptr)
        ncomm.recv(rbuf._dev.ptr, rbuf.size, nccl.NCCL_FLOAT64, peer, stream_ptr)
        nccl.groupEnd()

    rows = [("pack one face", lambda: h._kernels.pack(u, sbuf, *h._box(sidx))),
            ("NCCL send/recv of the face", sendrecv),
            ("unpack one face", lambda: h._kernels.unpack(u, rbuf, *h._box(ridx))),
            ("Halo.exchange()", h.exchange)]
    for name, fn in rows:
        cart.Barrier()
        t = gpu_ms(fn)
        t = cart.allreduce(t, op=MPI.MAX)
        if cart.Get_rank() == 0:
            print(f"{name:32s} {t * 1e3:9.1f} us  (face {sbuf.size} doubles, slowest rank)",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
