"""Run by tests/api/test_mpi.py under mpirun: pykokkos.mpi.Halo on 2-D and
3-D Views (widths 1 and 2, bounded and periodic: a rank its own neighbour,
faces+corners with exchange(), before and after
a kernel took the View (on a GPU: the View then lives on the device), of a
LayoutLeft View, faces
with start/finish), Views straight into mpi4py, and allreduce of a
parallel_reduce. Each rank writes OK or BAD <why> to DIR/rank<r>.txt
(DIR: the first argument)."""
import os
import sys

import numpy as np
from mpi4py import MPI

import pykokkos as pk
from pykokkos.mpi import Halo


@pk.workunit
def ones(i: int, acc: pk.Acc[pk.double], v: pk.View1D[pk.double]):
    acc += v[i]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutRight))
def touch2(i: int, v: pk.View2D[pk.double]):
    v[i][0] = v[i][0] + 0.0


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutRight))
def touch3(i: int, v: pk.View3D[pk.double]):
    v[i][0][0] = v[i][0][0] + 0.0


def check_halo(comm, nd, width, periodic, bad):
    """periodic: every dimension wraps, so a rank may be its own neighbour
    (and, on 2 ranks, both neighbours along dimension 0 are the other rank);
    then every ghost holds the wrapped global cell."""
    size = comm.Get_size()
    dims = MPI.Compute_dims(size, nd)
    cart = comm.Create_cart(dims, periods=[periodic] * nd)
    coords = cart.Get_coords(cart.Get_rank())
    own = [5 + d for d in range(nd)]                     # owned cells per dimension
    glob = [own[d] * dims[d] for d in range(nd)]
    gval = np.arange(np.prod(glob), dtype=np.float64).reshape(glob) + 1.0
    lo = [coords[d] * own[d] for d in range(nd)]
    shape = [own[d] + 2 * width for d in range(nd)]
    a = np.full(shape, -1.0)
    inner = tuple(slice(width, width + own[d]) for d in range(nd))
    a[inner] = gval[tuple(slice(lo[d], lo[d] + own[d]) for d in range(nd))]
    for mode in ("exchange", "overlap", "exchange after a kernel", "exchange of a LayoutLeft View"):
        v = pk.array(a.copy())
        if mode.endswith("LayoutLeft View"):
            v = pk.View(shape, pk.double, layout=pk.LayoutLeft)
            v[...] = a
        h = Halo(cart, v, width=width)
        if mode == "exchange after a kernel":   # on a GPU: the View lives there first
            pk.parallel_for(shape[0], touch2 if nd == 2 else touch3, v=v)
        if mode.startswith("exchange"):
            h.exchange()
        else:
            h.start()
            h.finish()
        got = np.asarray(v)
        for idx in np.ndindex(*shape):
            g = [lo[d] + idx[d] - width for d in range(nd)]
            if periodic:
                g = [x % n for x, n in zip(g, glob)]
            inside = [0 <= g[d] < glob[d] for d in range(nd)]
            ghost_dims = sum(not (width <= idx[d] < width + own[d]) for d in range(nd))
            if all(inside) and (mode != "overlap" or ghost_dims <= 1):
                want = gval[tuple(g)]
            else:
                want = -1.0                               # outside the grid, or a corner
            if got[idx] != want:
                bad.append(f"{nd}-D width {width}{' periodic' if periodic else ''} {mode}: "
                           f"cell {idx} is {got[idx]}, want {want}")
                return


def main():
    comm = MPI.COMM_WORLD
    r, size = comm.Get_rank(), comm.Get_size()
    bad = []
    for nd in (2, 3):
        for width in (1, 2):
            for periodic in (False, True):
                check_halo(comm, nd, width, periodic, bad)
    v = pk.View([6], pk.double)
    v.fill(r + 1.0)
    w = pk.View([6], pk.double)
    # a View on a CUDA device goes to a (not CUDA-aware) MPI as its host array
    host = np.asarray if os.environ.get("PKC_BACKEND") in ("cuda", "hip") else (lambda x: x)
    comm.Sendrecv(host(v), dest=(r + 1) % size, recvbuf=host(w), source=(r - 1) % size)
    if not np.all(np.asarray(w) == ((r - 1) % size) + 1.0):
        bad.append(f"Sendrecv of Views gave {np.asarray(w)}")
    total = comm.allreduce(pk.parallel_reduce(6, ones, v=v))
    if total != 6.0 * size * (size + 1) / 2:
        bad.append(f"allreduce of parallel_reduce gave {total}")
    verdict = "BAD " + "; ".join(bad[:3]) if bad else "OK"
    with open(f"{sys.argv[1]}/rank{r}.txt", "w") as f:   # not stdout: mpirun may split lines
        f.write(verdict + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
