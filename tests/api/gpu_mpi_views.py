"""By hand on a CUDA machine (not part of `make test`; run with
PKC_BACKEND=cuda, a Python 3.12+ with mpi4py 4, and an MPI that need not be
CUDA-aware): Views on the GPU passed straight to mpi4py calls. mpi4py takes a
View through the buffer protocol (View.__buffer__, PEP 688) before DLPack, so
MPI gets the View's host mirror, made current, instead of device memory (an
Open MPI without CUDA support segfaulted on that). Checks, against numpy:
Sendrecv from a View a kernel wrote into another View, a kernel reading what
MPI received, Allreduce into a View, Isend/Irecv. One process (COMM_SELF);
prints OK/BAD per check and OK as its last line when all pass.

    python3 tests/api/gpu_mpi_views.py"""
import sys

import numpy as np
import pykokkos as pk
from mpi4py import MPI


@pk.workunit
def fill(i: int, v: pk.View1D[pk.double], s: float):
    v[i] = s * i


@pk.workunit
def bump(i: int, v: pk.View1D[pk.double]):
    v[i] += 1.0


bad = []


def check(name, got, want):
    ok = np.array_equal(np.asarray(got), want)
    print(f"{'OK ' if ok else 'BAD'} {name}")
    if not ok:
        bad.append(name)


def main():
    comm = MPI.COMM_SELF
    n = 4096
    ramp = np.arange(n, dtype=np.float64)
    src, dst = pk.View([n], pk.double), pk.View([n], pk.double)
    pk.parallel_for(n, fill, v=src, s=1.5)   # on the device
    comm.Sendrecv(src, 0, 0, dst, 0, 0)
    check("Sendrecv of kernel-written Views", dst, 1.5 * ramp)
    pk.parallel_for(n, bump, v=dst)          # reads what MPI wrote
    check("a kernel after the receive", dst, 1.5 * ramp + 1.0)
    out = pk.View([n], pk.double)
    pk.parallel_for(n, fill, v=out, s=0.0)
    comm.Allreduce(src, out, op=MPI.SUM)
    check("Allreduce into a View", out, 1.5 * ramp)
    r = comm.Irecv(dst, 0, 7)
    comm.Isend(src, 0, 7).Wait()
    r.Wait()
    pk.parallel_for(n, bump, v=dst)
    check("Isend/Irecv then a kernel", dst, 1.5 * ramp + 1.0)
    print("OK" if not bad else f"BAD {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
