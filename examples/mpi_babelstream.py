"""BabelStream over MPI ranks: each rank owns a slice of the arrays, runs
copy, mul, add and triad with pkc kernels and the dot product as a
parallel_reduce whose per-rank results are summed with comm.allreduce.
Checked against BabelStream's gold values (the same recurrence on scalars).

    mpirun -np 2 python3 examples/mpi_babelstream.py [N NUMTIMES]
"""
# test-args: 200000 5
# mpi-ranks: 1 2
import sys

import numpy as np
from mpi4py import MPI

import pykokkos as pk


@pk.workunit
def init(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    a[i] = 0.1
    b[i] = 0.2
    c[i] = 0.0


@pk.workunit
def copy(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i]


@pk.workunit
def mul(i: int, b: pk.View1D[pk.double], c: pk.View1D[pk.double], scalar: float):
    b[i] = scalar * c[i]


@pk.workunit
def add(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i] + b[i]


@pk.workunit
def triad(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double], c: pk.View1D[pk.double],
          scalar: float):
    a[i] = b[i] + scalar * c[i]


@pk.workunit
def dot(i: int, acc: pk.Acc[pk.double], a: pk.View1D[pk.double], b: pk.View1D[pk.double]):
    acc += a[i] * b[i]


def main():
    n, times = (int(x) for x in (sys.argv[1:3] if len(sys.argv) > 2 else (1 << 24, 20)))
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    local = len(np.array_split(np.arange(n), size)[rank])
    scalar = 0.4
    a, b, c = (pk.View([local], pk.double) for _ in range(3))
    pk.parallel_for(local, init, a=a, b=b, c=c)
    pk.fence()
    comm.Barrier()
    timer = pk.Timer()
    total = 0.0
    for _ in range(times):
        pk.parallel_for(local, copy, a=a, c=c)
        pk.parallel_for(local, mul, b=b, c=c, scalar=scalar)
        pk.parallel_for(local, add, a=a, b=b, c=c)
        pk.parallel_for(local, triad, a=a, b=b, c=c, scalar=scalar)
        total = comm.allreduce(pk.parallel_reduce(local, dot, a=a, b=b), op=MPI.SUM)
    seconds = comm.allreduce(timer.seconds(), op=MPI.MAX)
    devices = comm.gather(pk.get_device_id(), root=0)
    ga, gb, gc = 0.1, 0.2, 0.0
    for _ in range(times):
        gc = ga
        gb = scalar * gc
        gc = ga + gb
        ga = gb + scalar * gc
    gold = ga * gb * n
    ok = (abs(total - gold) / abs(gold) < 1e-8 and
          comm.allreduce(int(np.all(np.asarray(a) == ga) and np.all(np.asarray(b) == gb) and
                             np.all(np.asarray(c) == gc)), op=MPI.MIN) == 1)
    if rank == 0:
        print(f"mpi_babelstream: N={n} on {size} rank(s), {times} times: {seconds:.3f} s "
              f"({6 * 8 * n * times / seconds / 1e9:.2f} GB/s incl. allreduce); "
              f"device ids per rank {devices}")
        print(f"mpi_babelstream: verification {'PASSED' if ok else 'FAILED'} "
              f"(dot {total!r}, gold {gold!r})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
