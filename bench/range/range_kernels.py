"""RangePolicy kernels for bench/range/ab.py, written as PyKokkos users write
them: BabelStream's copy, mul and triad, a gather, and a particle push that
touches nine Views (more pairs than g++ checks for overlap at run time)."""
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
