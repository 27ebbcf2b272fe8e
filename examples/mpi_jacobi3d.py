"""Jacobi 3D heat stencil (7 points) over MPI ranks: the grid is split over a
3-D Cartesian communicator, each rank updates its block with a pkc kernel,
and pykokkos.mpi.Halo exchanges one ghost layer per side between iterations
(--overlap: the faces travel while the inner cells are updated).

The result is gathered on rank 0 and compared with the same iterations on
the whole grid in numpy: bitwise identical for any number of ranks.

    mpirun -np 2 python3 examples/mpi_jacobi3d.py [NX NY NZ ITERATIONS] [--overlap]
"""
# test-args: 24 20 16 10
# mpi-ranks: 1 2
import sys

import numpy as np
from mpi4py import MPI

import pykokkos as pk
from pykokkos.mpi import Halo


@pk.workunit
def jacobi(i: int, j: int, k: int, u: pk.View3D[pk.double], unew: pk.View3D[pk.double]):
    unew[i][j][k] = (u[i - 1][j][k] + u[i + 1][j][k] + u[i][j - 1][k] + u[i][j + 1][k] +
                     u[i][j][k - 1] + u[i][j][k + 1]) * (1.0 / 6.0)


@pk.workunit
def copy_back(i: int, j: int, k: int, unew: pk.View3D[pk.double], u: pk.View3D[pk.double]):
    u[i][j][k] = unew[i][j][k]


def initial(n):
    """The global grid with its fixed boundary: one hot face, a ramp on another."""
    g = np.zeros([m + 2 for m in n])
    g[0, :, :] = 1.0
    g[:, 0, :] = np.linspace(1.0, 0.0, n[0] + 2)[:, None]
    return g


def reference(n, iters):
    g = initial(n)
    for _ in range(iters):
        g[1:-1, 1:-1, 1:-1] = (g[:-2, 1:-1, 1:-1] + g[2:, 1:-1, 1:-1] + g[1:-1, :-2, 1:-1] +
                               g[1:-1, 2:, 1:-1] + g[1:-1, 1:-1, :-2] + g[1:-1, 1:-1, 2:]) * (1.0 / 6.0)
    return g


def update(u, unew, lo, hi):
    if all(a < b for a, b in zip(lo, hi)):
        pk.parallel_for(pk.MDRangePolicy([lo[0], lo[1], lo[2]], [hi[0], hi[1], hi[2]]),
                        jacobi, u=u, unew=unew)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    overlap = "--overlap" in sys.argv
    nx, ny, nz, iters = (int(a) for a in (args[:4] if len(args) >= 4 else (128, 128, 128, 50)))
    n = (nz, ny, nx)                                   # dimension 0 is the slowest
    comm = MPI.COMM_WORLD
    dims = MPI.Compute_dims(comm.Get_size(), 3)
    cart = comm.Create_cart(dims, periods=[False] * 3)
    coords = cart.Get_coords(cart.Get_rank())
    own = [np.array_split(np.arange(n[d]), dims[d])[coords[d]] for d in range(3)]
    lo = [int(o[0]) for o in own]
    m = [len(o) for o in own]

    g = initial(n)
    u = pk.array(np.ascontiguousarray(g[lo[0]:lo[0] + m[0] + 2, lo[1]:lo[1] + m[1] + 2,
                                       lo[2]:lo[2] + m[2] + 2]))
    unew = pk.array(np.array(u))
    halo = Halo(cart, u, width=1)

    cart.Barrier()
    timer = pk.Timer()
    full_lo, full_hi = [1, 1, 1], [m[0] + 1, m[1] + 1, m[2] + 1]
    for _ in range(iters):
        if overlap:
            halo.start()
            update(u, unew, [2, 2, 2], [m[0], m[1], m[2]])
            halo.finish()
            for d in range(3):                              # the six faces of the rim
                for side in (1, m[d]):
                    a, b = list(full_lo), list(full_hi)
                    a[d], b[d] = side, side + 1
                    for e in range(d):                      # not twice what an earlier face did
                        a[e], b[e] = 2, m[e]
                    update(u, unew, a, b)
        else:
            halo.exchange()
            update(u, unew, full_lo, full_hi)
        pk.parallel_for(pk.MDRangePolicy([1, 1, 1], [m[0] + 1, m[1] + 1, m[2] + 1]),
                        copy_back, unew=unew, u=u)
    pk.fence()
    seconds = cart.allreduce(timer.seconds(), op=MPI.MAX)
    halo_seconds = cart.allreduce(halo.seconds, op=MPI.MAX)

    blocks = cart.gather((lo, np.array(u)[1:m[0] + 1, 1:m[1] + 1, 1:m[2] + 1]), root=0)
    if cart.Get_rank() != 0:
        return 0
    got = initial(n)
    for bl, b in blocks:
        got[1 + bl[0]:1 + bl[0] + b.shape[0], 1 + bl[1]:1 + bl[1] + b.shape[1],
            1 + bl[2]:1 + bl[2] + b.shape[2]] = b
    want = reference(n, iters)
    print(f"mpi_jacobi3d: {nx}x{ny}x{nz}, {iters} iterations on {comm.Get_size()} rank(s) "
          f"({dims[0]}x{dims[1]}x{dims[2]}){' with overlap' if overlap else ''}: {seconds:.3f} s, "
          f"{seconds / iters * 1e3:.3f} ms per iteration, halo exchange "
          f"{100 * halo_seconds / seconds:.0f}%")
    if not np.array_equal(got, want):
        print(f"mpi_jacobi3d: verification FAILED ({int((got != want).sum())} cells differ)")
        return 1
    print("mpi_jacobi3d: verification PASSED (bitwise equal to the one-grid numpy run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
