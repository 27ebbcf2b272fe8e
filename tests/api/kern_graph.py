"""Kernels and a time step for the pk.Graph tests (tests/api/test_graph.py,
tests/api/mpi_graph_prog.py; built by pkc on first use into
tests/api/kern_graph.pk/): a 2-D Jacobi step, a residual reduced into a
View on the device (one thread sums in a fixed order: bitwise reproducible)
and a step counter."""
import pykokkos as pk


@pk.workunit
def jacobi(i: int, j: int, u: pk.View2D[pk.double], unew: pk.View2D[pk.double]):
    unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1])


@pk.workunit
def copy_back(i: int, j: int, unew: pk.View2D[pk.double], u: pk.View2D[pk.double]):
    u[i][j] = unew[i][j]


@pk.workunit
def residual(t: int, u: pk.View2D[pk.double], unew: pk.View2D[pk.double],
             res: pk.View1D[pk.double], count: pk.View1D[pk.int64]):
    s: float = 0.0
    for i in range(1, u.extent(0) - 1):
        for j in range(1, u.extent(1) - 1):
            d: float = unew[i][j] - u[i][j]
            s += d * d
    res[0] = s  # pkc: allow possible-race
    count[0] += 1  # pkc: allow possible-race


@pk.workunit
def scale(i: int, j: int, u: pk.View2D[pk.double], a: float):
    u[i][j] = u[i][j] * a


@pk.workunit
def total(i: int, acc: pk.Acc[pk.double], x: pk.View2D[pk.double]):
    acc += x[i][1]


def scale_all(u, a):
    """u[1:-1, 1:-1] *= a."""
    pk.parallel_for(pk.MDRangePolicy([1, 1], [u.shape[0] - 1, u.shape[1] - 1]), scale, u=u, a=a)


def make(n, m, r0=0):
    """u, unew (n x m with a ghost layer: (n + 2) x (m + 2)), res, count."""
    import numpy as np
    g = np.zeros((n + 2, m + 2))
    g[0, :] = 1.0
    g[:, 0] = np.linspace(1.0, 0.0, n + 2) + r0
    g[1:-1, 1:-1] = np.sin(np.arange(n * m)).reshape(n, m) * 0.5
    u = pk.array(g.copy())       # pk.array may share g's memory: one copy each
    unew = pk.array(g.copy())
    return u, unew, pk.View([1], pk.double), pk.View([1], pk.int64)


def step(u, unew, res, count, halo=None):
    """One time step: halo exchange (if any), update, residual, copy back."""
    n, m = u.shape[0] - 2, u.shape[1] - 2
    if halo is not None:
        halo.exchange()
    pk.parallel_for(pk.MDRangePolicy([1, 1], [n + 1, m + 1]), jacobi, u=u, unew=unew)
    pk.parallel_for(1, residual, u=u, unew=unew, res=res, count=count)
    pk.parallel_for(pk.MDRangePolicy([1, 1], [n + 1, m + 1]), copy_back, unew=unew, u=u)


def update(u, unew, lo, hi):
    if lo[0] < hi[0] and lo[1] < hi[1]:
        pk.parallel_for(pk.MDRangePolicy([lo[0], lo[1]], [hi[0], hi[1]]), jacobi, u=u, unew=unew)


def step_overlap(u, unew, res, count, halo):
    """step with the exchange overlapped: start, inner cells, finish, the rim."""
    n, m = u.shape[0] - 2, u.shape[1] - 2
    halo.start()
    update(u, unew, [2, 2], [n, m])
    halo.finish()
    for lo, hi in (([1, 1], [2, m + 1]), ([n, 1], [n + 1, m + 1]),
                   ([2, 1], [n, 2]), ([2, m], [n, m + 1])):
        update(u, unew, lo, hi)
    pk.parallel_for(1, residual, u=u, unew=unew, res=res, count=count)
    pk.parallel_for(pk.MDRangePolicy([1, 1], [n + 1, m + 1]), copy_back, unew=unew, u=u)


def copy(u, unew, lo, hi):
    if lo[0] < hi[0] and lo[1] < hi[1]:
        pk.parallel_for(pk.MDRangePolicy([lo[0], lo[1]], [hi[0], hi[1]]), copy_back,
                        unew=unew, u=u)


def step_overlap_split(u, unew, halo):
    """step_overlap without the residual, its copy back split as
    bench/mpi/jacobi_scaling.py splits it: the cells the rim strips do not
    read (two planes in from every side) first, then the two planes per
    side (rows, then the columns between them)."""
    n, m = u.shape[0] - 2, u.shape[1] - 2
    halo.start()
    update(u, unew, [2, 2], [n, m])
    halo.finish()
    for lo, hi in (([1, 1], [2, m + 1]), ([n, 1], [n + 1, m + 1]),
                   ([2, 1], [n, 2]), ([2, m], [n, m + 1])):
        update(u, unew, lo, hi)
    copy(u, unew, [3, 3], [n - 1, m - 1])
    for lo, hi in (([1, 1], [3, m + 1]), ([n - 1, 1], [n + 1, m + 1]),
                   ([3, 1], [n - 1, 3]), ([3, m - 1], [n - 1, m + 1])):
        copy(u, unew, lo, hi)
