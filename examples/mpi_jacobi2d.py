"""Jacobi 2D heat stencil over MPI ranks: the grid is split over a 2-D
Cartesian communicator (mpi4py), each rank updates its block with a pkc
kernel, and pykokkos.mpi.Halo exchanges one ghost layer per side between
iterations -- with --overlap, the exchange travels while the inner cells
(those that need no ghost) are updated, and the block's rim is updated after.

The result is gathered on rank 0 and compared with the same iterations on
the whole grid in numpy: it must be bitwise identical for any number of
ranks (same arithmetic, same order per cell).

    mpirun -np 2 python3 examples/mpi_jacobi2d.py [NX NY ITERATIONS] [--overlap]
"""
# test-args: 64 48 20
# mpi-ranks: 1 2
import sys

import numpy as np
from mpi4py import MPI

import pykokkos as pk
from pykokkos.mpi import Halo


@pk.workunit
def jacobi(i: int, j: int, u: pk.View2D[pk.double], unew: pk.View2D[pk.double]):
    unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1])


@pk.workunit
def copy_back(i: int, j: int, unew: pk.View2D[pk.double], u: pk.View2D[pk.double]):
    u[i][j] = unew[i][j]


def initial(ny, nx):
    """The global grid with its fixed boundary: the top edge hot, a ramp on the left."""
    g = np.zeros((ny + 2, nx + 2))
    g[0, :] = 1.0
    g[:, 0] = np.linspace(1.0, 0.0, ny + 2)
    return g


def reference(ny, nx, iters):
    g = initial(ny, nx)
    for _ in range(iters):
        g[1:-1, 1:-1] = 0.25 * (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])
    return g


def update(u, unew, lo, hi):
    """unew = the Jacobi update of u over cells [lo, hi) (rows, columns)."""
    if lo[0] < hi[0] and lo[1] < hi[1]:
        pk.parallel_for(pk.MDRangePolicy([lo[0], lo[1]], [hi[0], hi[1]]), jacobi,
                        u=u, unew=unew)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    overlap = "--overlap" in sys.argv
    nx, ny, iters = (int(a) for a in (args[:3] if len(args) >= 3 else (512, 512, 200)))
    comm = MPI.COMM_WORLD
    dims = MPI.Compute_dims(comm.Get_size(), 2)
    cart = comm.Create_cart(dims, periods=[False, False])
    py, px = cart.Get_coords(cart.Get_rank())
    rows = np.array_split(np.arange(ny), dims[0])[py]
    cols = np.array_split(np.arange(nx), dims[1])[px]
    r0, c0, my, mx = int(rows[0]), int(cols[0]), len(rows), len(cols)

    g = initial(ny, nx)
    u = pk.array(np.ascontiguousarray(g[r0:r0 + my + 2, c0:c0 + mx + 2]))
    unew = pk.array(np.array(u))
    halo = Halo(cart, u, width=1)

    cart.Barrier()
    timer = pk.Timer()
    for _ in range(iters):
        if overlap:
            halo.start()
            update(u, unew, [2, 2], [my, mx])                 # cells that need no ghost
            halo.finish()
            for lo, hi in (([1, 1], [2, mx + 1]), ([my, 1], [my + 1, mx + 1]),
                           ([2, 1], [my, 2]), ([2, mx], [my, mx + 1])):
                update(u, unew, lo, hi)                       # the rim
        else:
            halo.exchange()
            update(u, unew, [1, 1], [my + 1, mx + 1])
        pk.parallel_for(pk.MDRangePolicy([1, 1], [my + 1, mx + 1]), copy_back, unew=unew, u=u)
    pk.fence()
    seconds = cart.allreduce(timer.seconds(), op=MPI.MAX)
    halo_seconds = cart.allreduce(halo.seconds, op=MPI.MAX)

    blocks = cart.gather((r0, c0, np.array(u)[1:my + 1, 1:mx + 1]), root=0)
    if cart.Get_rank() != 0:
        return 0
    got = initial(ny, nx)
    for rr, cc, b in blocks:
        got[1 + rr:1 + rr + b.shape[0], 1 + cc:1 + cc + b.shape[1]] = b
    want = reference(ny, nx, iters)
    print(f"mpi_jacobi2d: {nx}x{ny}, {iters} iterations on {comm.Get_size()} rank(s) "
          f"({dims[0]}x{dims[1]}){' with overlap' if overlap else ''}: {seconds:.3f} s, "
          f"{seconds / iters * 1e3:.3f} ms per iteration, halo exchange "
          f"{100 * halo_seconds / seconds:.0f}%")
    if not np.array_equal(got, want):
        bad = np.argwhere(got != want)
        print(f"mpi_jacobi2d: verification FAILED ({len(bad)} cells differ, first {bad[0]})")
        return 1
    print("mpi_jacobi2d: verification PASSED (bitwise equal to the one-grid numpy run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
