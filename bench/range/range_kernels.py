"""RangePolicy kernels for bench/range/ab.py, written as PyKokkos users write
them: BabelStream's copy, mul and triad, a gather, a particle push that
touches nine Views (more pairs than g++ checks for overlap at run time),
BabelStream's dot, and the row sums of y^T A x with a TeamPolicy (the
Kokkos tutorial's inner TeamThreadRange reduction)."""
import pykokkos as pk


@pk.workunit
def copy(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i]


@pk.workunit
def mul(i: int, b: pk.View1D[pk.double], c: pk.View1D[pk.double], scalar: float):
    b[i] = scalar * c[i]


@pk.workunit
def triad(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double], c: pk.View1D[pk.double],
          scalar: float):
    a[i] = b[i] + scalar * c[i]


@pk.workunit
def gather(i: int, x: pk.View1D[pk.double], idx: pk.View1D[pk.int64], y: pk.View1D[pk.double]):
    y[i] = x[idx[i]]


@pk.workunit
def push(i: int, x: pk.View1D[pk.double], y: pk.View1D[pk.double], z: pk.View1D[pk.double],
         vx: pk.View1D[pk.double], vy: pk.View1D[pk.double], vz: pk.View1D[pk.double],
         fx: pk.View1D[pk.double], fy: pk.View1D[pk.double], fz: pk.View1D[pk.double],
         dt: float, m: float):
    vx[i] += dt * fx[i] / m
    vy[i] += dt * fy[i] / m
    vz[i] += dt * fz[i] / m
    x[i] += dt * vx[i]
    y[i] += dt * vy[i]
    z[i] += dt * vz[i]


@pk.workunit
def dot(i: int, acc: pk.Acc[pk.double], a: pk.View1D[pk.double], b: pk.View1D[pk.double]):
    acc += a[i] * b[i]


@pk.workunit
def yAx(m: pk.TeamMember, acc: pk.Acc[pk.double], M: int, y: pk.View1D[pk.double],
        x: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    j: int = m.league_rank()

    def inner(i: int, inner_acc: pk.Acc[pk.double]):
        inner_acc += A[j][i] * x[i]

    temp2: float = pk.parallel_reduce(pk.TeamThreadRange(m, M), inner)

    def add_row():
        nonlocal acc
        acc += y[j] * temp2

    pk.single(pk.PerTeam(m), add_row)
