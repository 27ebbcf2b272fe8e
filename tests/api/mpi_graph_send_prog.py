"""Run under mpirun by test_graph.py (and scripts/gpu/nvshmem_halo_cuda.sh
on GPUs): a 3-D Jacobi step (Halo.exchange(), update, copy back) cut along
its last dimension, replayed from pk.Graph four steps per graph, must give
on every rank bitwise the numbers of the same steps called by hand, and the
gathered grid numpy's one-grid run; with and without a periodic cut (one
rank: its own neighbour). On CUDA with NVSHMEM's direct exchange the
exchanges after each graph's first only send (pk.Graph.send_only(): the
updates wait for the counts the neighbours raise; PKC_EXPECT_SEND=1 makes a
graph without them an error). Writes OUT/rank<k>.txt: OK or what differed."""
import os
import sys

import numpy as np
from mpi4py import MPI

import pykokkos as pk
from pykokkos.mpi import Halo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kern_send3 as K  # noqa: E402

STEPS, NX, NY, NZ = 11, 6, 5, 16


def planes(cart):
    """(first owned plane, planes) of this rank along the cut."""
    z = np.array_split(np.arange(NZ), cart.Get_size())[cart.Get_rank()]
    return int(z[0]), len(z)


def grid():
    """The global grid with its ghost layer; the ghosts of the uncut
    dimensions differ plane by plane, so that the faces carry them."""
    x, y, z = np.meshgrid(np.arange(NX + 2), np.arange(NY + 2), np.arange(NZ + 2),
                          indexing="ij")
    return np.cos(0.7 * x + 1.3 * y + 0.31 * z) + 0.01 * z


def local(cart):
    z0, nz = planes(cart)
    g = grid()[:, :, z0:z0 + nz + 2]
    u, unew = pk.array(g.copy()), pk.array(g.copy())
    return u, unew, Halo(cart, u, width=1)


def reference(periodic):
    g = grid()
    for _ in range(STEPS):
        if periodic:
            g[:, :, 0], g[:, :, NZ + 1] = g[:, :, NZ].copy(), g[:, :, 1].copy()
        g[1:-1, 1:-1, 1:-1] = (g[:-2, 1:-1, 1:-1] + g[2:, 1:-1, 1:-1] + g[1:-1, :-2, 1:-1]
                               + g[1:-1, 2:, 1:-1] + g[1:-1, 1:-1, :-2]
                               + g[1:-1, 1:-1, 2:]) / 6.0
    return g


def check(comm, periodic):
    cart = comm.Create_cart([1, 1, comm.Get_size()], periods=[False, False, periodic])
    plain, graphed = local(cart), local(cart)
    for _ in range(STEPS):
        K.step(*plain)
    g = pk.Graph(K.step, *graphed, steps_per_graph=4)
    g.replay(2)
    g.replay(STEPS - 2)
    why = []
    if not np.array_equal(np.array(plain[0]), np.array(graphed[0])):
        why.append("grid differs from the plain steps")
    z0, nz = planes(cart)
    parts = cart.allgather((z0, np.array(graphed[0])[1:-1, 1:-1, 1:nz + 1]))
    got = reference(periodic)   # the ghosts as numpy has them; owned cells from the ranks
    ref = got.copy()
    for zz, b in parts:
        got[1:-1, 1:-1, 1 + zz:1 + zz + b.shape[2]] = b
    if not np.array_equal(got, ref):
        why.append("gathered grid differs from numpy's one-grid run")
    sends = g.send_only()
    if os.environ.get("PKC_EXPECT_SEND") == "1" and (cart.Get_size() > 1 or periodic) \
            and not sends:
        why.append(f"no send-only exchange in the graph (mode {g.mode}, edges {g.edges()})")
    name = "periodic" if periodic else "open"
    print(f"rank {cart.Get_rank()} {name}: mode={g.mode} send_only={sends}", flush=True)
    return [f"{name}: {w}" for w in why]


def main():
    out = sys.argv[1]
    comm = MPI.COMM_WORLD
    why = check(comm, False) + check(comm, True)
    with open(os.path.join(out, f"rank{comm.Get_rank()}.txt"), "w") as f:
        f.write("OK\n" if not why else "; ".join(why) + "\n")


if __name__ == "__main__":
    main()
