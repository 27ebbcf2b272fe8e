"""Run under mpirun by test_graph.py: a pk.Graph whose step exchanges the
halo (pykokkos.mpi.Halo: exchange() before the update, or start()/finish()
around the inner cells' update) must give, on every rank,
bitwise the numbers of the same steps called by hand, and the gathered
grid must be numpy's one-grid Jacobi. Writes OUT/rank<k>.txt: OK or what differed."""
import os
import sys

import numpy as np
from mpi4py import MPI

import pykokkos as pk
from pykokkos.mpi import Halo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kern_graph as K  # noqa: E402

STEPS, NY, NX = 6, 24, 10


def blocks(comm):
    rows = np.array_split(np.arange(NY), comm.Get_size())[comm.Get_rank()]
    return int(rows[0]), len(rows)


def grid():
    g = np.zeros((NY + 2, NX + 2))
    g[0, :] = 1.0
    g[:, 0] = np.linspace(1.0, 0.0, NY + 2)
    g[1:-1, 1:-1] = np.cos(np.arange(NY * NX)).reshape(NY, NX)
    return g


def local(cart):
    r0, my = blocks(cart)
    g = grid()[r0:r0 + my + 2]
    u, unew = pk.array(g.copy()), pk.array(g.copy())
    return u, unew, pk.View([1], pk.double), pk.View([1], pk.int64), Halo(cart, u, width=1)


def main():
    out = sys.argv[1]
    comm = MPI.COMM_WORLD
    cart = comm.Create_cart([comm.Get_size(), 1], periods=[False, False])
    why = []
    for fn in (K.step, K.step_overlap):
        why += check(cart, fn)
    with open(os.path.join(out, f"rank{cart.Get_rank()}.txt"), "w") as f:
        f.write("OK\n" if not why else "; ".join(why) + "\n")


def check(cart, fn):
    """fn's steps by hand and replayed: what differs (empty: nothing)."""
    plain, graphed = local(cart), local(cart)
    for _ in range(STEPS):
        fn(*plain)
    g = pk.Graph(fn, *graphed)
    g.replay(2)
    g.replay(STEPS - 2)
    why = []
    if fn is K.step_overlap:
        why += overlap_edges(g.edges(), cart.Get_size() > 1)
        why += overlap_urgent(g.edges(), g.urgent())
    if not np.array_equal(np.array(plain[0]), np.array(graphed[0])):
        why.append("grid differs from the plain steps")
    if int(graphed[3][0]) != STEPS:
        why.append(f"counter {int(graphed[3][0])}")
    if float(plain[2][0]) != float(graphed[2][0]):
        why.append("residual differs")
    r0, my = blocks(cart)
    parts = cart.allgather((r0, np.array(graphed[0])[1:my + 1]))
    ref = grid()
    for _ in range(STEPS):
        ref[1:-1, 1:-1] = 0.25 * (ref[:-2, 1:-1] + ref[2:, 1:-1] + ref[1:-1, :-2] + ref[1:-1, 2:])
    got = grid()
    for rr, b in parts:
        got[1 + rr:1 + rr + b.shape[0]] = b
    if not np.array_equal(got, ref):
        why.append("gathered grid differs from numpy's one-grid run")
    return [f"{fn.__name__}: {w}" for w in why]


def overlap_edges(edges, neighbours):
    """What is wrong with step_overlap's edges (pk.Graph.edges()): start,
    the inner cells, finish, four rim strips, residual, copy back; the inner
    cells wait for nothing, no rim strip for the inner cells, and with a
    neighbour some rim strip waits for finish (its ghosts)."""
    labels = [e[0] for e in edges or []]
    want = ["Halo.start", "jacobi", "Halo.finish"] + ["jacobi"] * 4 + ["residual", "copy_back"]
    if labels != want:
        return [f"edges {edges}"]
    why = []
    if edges[1][1]:
        why.append(f"the inner cells wait for {edges[1][1]}")
    rims = [e[1] for e in edges[3:7]]
    if any(1 in w for w in rims):
        why.append(f"a rim strip waits for the inner cells: {rims}")
    if neighbours != any(2 in w for w in rims):
        why.append(f"rim strips {rims} and finish (neighbours: {neighbours})")
    return why


def overlap_urgent(edges, urgent):
    """What is wrong with step_overlap's urgent regions (pk.Graph.urgent()):
    the halo's start and finish, the rim strips that wait for finish, and
    what waits for those; never the inner cells, nor a rim strip that waits
    for no halo region."""
    if not edges or urgent is None:
        return [f"urgent {urgent} of edges {edges}"]
    # waits are transitively reduced: follow them to every region waited for
    above = {}
    for k, (_, waits) in enumerate(edges):
        above[k] = set(waits).union(*(above[j] for j in waits))
    want = {k for k in range(len(edges))
            if edges[k][0].startswith("Halo.") or any(edges[j][0].startswith("Halo.")
                                                       for j in above[k])}
    why = []
    if set(urgent) != want:
        why.append(f"urgent regions {urgent}, want {sorted(want)}")
    if 1 in urgent:
        why.append("the inner cells are urgent")
    return why


if __name__ == "__main__":
    main()
