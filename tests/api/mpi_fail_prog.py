"""Run by tests/api/test_mpi.py under mpirun with 2 ranks (issue 22 items 11
and 12). MODE (first argument):
  raise     rank 1 raises (pykokkos.mpi imported), rank 0 waits for it
  exit      both ranks run a kernel (the shim loads a module: no import of
            pykokkos.mpi), rank 1 calls sys.exit(3), rank 0 waits for it
  mismatch  Halos over Views whose faces differ, then whose dtypes differ,
            then whose ranks ask for different transports, then for the
            NVSHMEM transport on a host backend, then for an unknown one: each rank writes what its
            Halo raised to DIR/rank<r>.txt
DIR: the second argument."""
import os
import sys

import numpy as np
from mpi4py import MPI

import pykokkos as pk


@pk.workunit
def twice(i: int, v: pk.View1D[pk.double]):
    v[i] = 2.0 * v[i]


def halo_error(cart, a, **kw):
    from pykokkos.mpi import Halo
    try:
        Halo(cart, a, width=1, **kw)
        return "no error"
    except ValueError as e:
        return str(e)


def main(mode, out):
    comm = MPI.COMM_WORLD
    rank = comm.Get_rank()
    if mode == "raise":
        import pykokkos.mpi  # noqa: F401
        if rank == 1:
            raise RuntimeError("rank 1 fails on purpose")
        comm.recv(source=1)   # never comes: only an abort ends this rank
    elif mode == "exit":
        v = np.ones(4)
        pk.parallel_for(4, twice, v=v)
        if rank == 1:
            sys.exit(3)
        comm.recv(source=1)
    else:
        cart = comm.Create_cart([2, 1], periods=[False, False])
        faces = halo_error(cart, np.zeros((8, 8 + rank)))
        dtypes = halo_error(cart, np.zeros((8, 8), dtype=np.float32 if rank else np.float64))
        transports = halo_error(cart, pk.View([8, 8]), transport="mpi" if rank else "auto")
        nvshmem = halo_error(cart, pk.View([8, 8]), transport="nvshmem")
        unknown = halo_error(cart, pk.View([8, 8]), transport="shmem")
        with open(os.path.join(out, f"rank{rank}.txt"), "w") as f:
            f.write("\n".join((faces, dtypes, transports, nvshmem, unknown)) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "")
