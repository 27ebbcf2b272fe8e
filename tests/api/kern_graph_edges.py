"""Kernels for tests/api/test_graph_edges.py (built by pkc on first use into
tests/api/kern_graph_edges.pk/): launches over parts of 1-D Views whose
pk.Graph edges follow from what each work item touches."""
import pykokkos as pk


@pk.workunit
def fill(i: int, x: pk.View1D[pk.double], a: float):
    x[i] = a


@pk.workunit
def shift(i: int, x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
    y[i] = x[i + 1]


@pk.workunit
def copy(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i]


@pk.workunit
def team_fill(t: pk.TeamMember, x: pk.View1D[pk.double]):
    x[t.league_rank()] = 2.0


@pk.workunit
def scale(i, x, a):
    x[i] = x[i] * a


def halves(x):
    """Both halves of x scaled by a workunit typed per call (no annotations)."""
    launch(pk.RangePolicy(0, 10), scale, x=x, a=2.0)
    launch(pk.RangePolicy(10, 20), scale, x=x, a=3.0)


def launch(policy, kernel, **kw):
    """One launch (launches in a row of one function would be a chain that
    pkc fuses ahead of time: a fused chain is one region that waits for
    everything before it)."""
    pk.parallel_for(policy, kernel, **kw)


def parts(x, y, z):
    """Disjoint fills, another View, a shifted read, a team kernel, a copy
    (on CUDA a memory copy, except in a captured step: a kernel)."""
    launch(pk.RangePolicy(0, 10), fill, x=x, a=1.0)      # 0
    launch(pk.RangePolicy(10, 20), fill, x=x, a=2.0)     # 1: other elements
    launch(20, fill, x=y, a=3.0)                         # 2: another View
    launch(9, shift, x=x, y=y)                           # 3: x[1..9], y[0..8]
    launch(pk.TeamPolicy(4, pk.AUTO), team_fill, x=x)    # 4: not bounded
    launch(pk.RangePolicy(15, 20), fill, x=y, a=4.0)     # 5
    launch(20, copy, a=y, c=z)                           # 6


def numbers():
    """What parts() leaves in x and y (and z, y's copy), by numpy."""
    import numpy as np
    a, b = np.zeros(20), np.zeros(20)
    a[:10], a[10:], b[:] = 1.0, 2.0, 3.0
    b[:9] = a[1:10]
    a[:4] = 2.0
    b[15:] = 4.0
    return a, b
