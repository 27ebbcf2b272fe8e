"""Fusion benchmark subjects written as host code (bench/fusion/run.py runs
them): the launch statements pkc fuses ahead of time are in plain Python
functions, as PyKokkos programs write them, and the shim runs the fused
kernel when the calls match (pykokkos/_fusion.py). Each function runs its
chain once untimed (warm-up) and once timed; it returns (seconds, the array
whose values must be bitwise equal fused and unfused, or within rounding
for reduction results)."""
from math import pi

import numpy as np
import pykokkos as pk


@pk.workunit
def nstream(i: int, A: pk.View1D[pk.double], B: pk.View1D[pk.double],
            C: pk.View1D[pk.double], scalar: float):
    A[i] += B[i] + scalar * C[i]


@pk.workunit
def transpose(i: int, j: int, B: pk.View2D[pk.double], A: pk.View2D[pk.double]):
    B[i][j] += A[j][i]


@pk.workunit
def copy(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i]


@pk.workunit
def mul(i: int, b: pk.View1D[pk.double], c: pk.View1D[pk.double], scalar: float):
    b[i] = scalar * c[i]


@pk.workunit
def add(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i] + b[i]


@pk.workunit
def triad(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double], c: pk.View1D[pk.double],
          scalar: float):
    a[i] = b[i] + scalar * c[i]


@pk.workunit
def dot(i: int, acc: pk.Acc[pk.double], a: pk.View1D[pk.double], b: pk.View1D[pk.double]):
    acc += a[i] * b[i]


@pk.workunit
def norm2(i: int, acc: pk.Acc[pk.double], a: pk.View1D[pk.double]):
    acc += a[i] * a[i]


@pk.workunit
def center(i: int, j: int, d: pk.View2D[pk.double], X: pk.View2D[pk.double],
           theta: pk.View1D[pk.double]):
    d[i][j] = X[i][j] - theta[j]


@pk.workunit
def square(i: int, j: int, d: pk.View2D[pk.double]):
    d[i][j] = d[i][j] * d[i][j]


@pk.workunit
def over_var(i: int, j: int, d: pk.View2D[pk.double], var: pk.View1D[pk.double]):
    d[i][j] = d[i][j] / var[j]


@pk.workunit
def add_log_var(i: int, j: int, d: pk.View2D[pk.double], log_var: pk.View1D[pk.double]):
    d[i][j] = d[i][j] + log_var[j]


@pk.workunit
def halve(i: int, j: int, out: pk.View2D[pk.double], d: pk.View2D[pk.double]):
    out[i][j] = -0.5 * d[i][j]


@pk.workunit
def fdtd_ey(i: int, ey: pk.View2D[pk.double], hz: pk.View2D[pk.double],
            fict: pk.View1D[pk.double], t: int):
    if i == 0:
        for j in range(ey.extent(1)):
            ey[0][j] = fict[t]
    else:
        for j in range(ey.extent(1)):
            ey[i][j] -= 0.5 * (hz[i][j] - hz[i - 1][j])


@pk.workunit
def fdtd_ex(i: int, ex: pk.View2D[pk.double], hz: pk.View2D[pk.double]):
    for j in range(1, ex.extent(1)):
        ex[i][j] -= 0.5 * (hz[i][j] - hz[i][j - 1])


@pk.workunit
def fdtd_hz(i: int, hz: pk.View2D[pk.double], ex: pk.View2D[pk.double],
            ey: pk.View2D[pk.double]):
    if i < hz.extent(0) - 1:
        for j in range(hz.extent(1) - 1):
            hz[i][j] -= 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j])


def nstream50(n):
    """nstream x50 launched from Python (PyFuser's NS)."""
    A, B, C = pk.View([n], pk.double), pk.View([n], pk.double), pk.View([n], pk.double)
    B.fill(2.0)
    C.fill(2.0)
    reps = 50
    for r in range(reps):
        pk.parallel_for(n, nstream, A=A, B=B, C=C, scalar=3.0)
    pk.fence()
    timer = pk.Timer()
    for r in range(reps):
        pk.parallel_for(n, nstream, A=A, B=B, C=C, scalar=3.0)
    pk.fence()
    return timer.seconds(), np.array(A)


def transpose50(n):
    """transpose x50 launched from Python (PyFuser's T)."""
    A, B = pk.View([n, n], pk.double), pk.View([n, n], pk.double)
    A[:] = np.arange(n * n, dtype=np.float64).reshape(n, n)
    policy = pk.MDRangePolicy([0, 0], [n, n])
    reps = 50
    for r in range(reps):
        pk.parallel_for(policy, transpose, B=B, A=A)
    pk.fence()
    timer = pk.Timer()
    for r in range(reps):
        pk.parallel_for(policy, transpose, B=B, A=A)
    pk.fence()
    return timer.seconds(), np.array(B)


def babelstream(n):
    """BabelStream's copy, mul, add, triad and dot launched from Python (PyFuser's BS)."""
    a, b, c = pk.View([n], pk.double), pk.View([n], pk.double), pk.View([n], pk.double)
    a.fill(0.1)
    b.fill(0.2)
    s = 0.4
    pk.parallel_for(n, copy, a=a, c=c)
    pk.parallel_for(n, mul, b=b, c=c, scalar=s)
    pk.parallel_for(n, add, a=a, b=b, c=c)
    pk.parallel_for(n, triad, a=a, b=b, c=c, scalar=s)
    total = pk.parallel_reduce(n, dot, a=a, b=b)
    pk.fence()
    timer = pk.Timer()
    pk.parallel_for(n, copy, a=a, c=c)
    pk.parallel_for(n, mul, b=b, c=c, scalar=s)
    pk.parallel_for(n, add, a=a, b=b, c=c)
    pk.parallel_for(n, triad, a=a, b=b, c=c, scalar=s)
    total = pk.parallel_reduce(n, dot, a=a, b=b)
    seconds = timer.seconds()
    return seconds, np.array([total])


def dot_norm20(n):
    """BabelStream's dot and a norm of the same array, twenty times: two
    reductions in a row, one fused kernel (the norm runs ahead of its
    statement)."""
    a, b = pk.View([n], pk.double), pk.View([n], pk.double)
    a[:] = 0.1 + (np.arange(n) % 11) * 0.01
    b[:] = 0.2 - (np.arange(n) % 7) * 0.01
    seconds = 0.0
    for timed in (False, True):
        pk.fence()
        timer = pk.Timer()
        for r in range(20):
            d = pk.parallel_reduce(n, dot, a=a, b=b)
            s = pk.parallel_reduce(n, norm2, a=a)
        seconds = timer.seconds()
    return seconds, np.array([d, s])


def gaussian_nb(n):
    """Gaussian naive Bayes: the per-feature log-likelihood of n samples of 64
    features for one class, five element-wise kernels (PyFuser's NB 2);
    log(2 pi var) is per feature, computed once, as scikit-learn does."""
    f = 64
    X, d, out = (pk.View([n, f], pk.double) for _ in range(3))
    theta, var = pk.View([f], pk.double), pk.View([f], pk.double)
    X[:] = np.sin(np.arange(n * f, dtype=np.float64)).reshape(n, f)
    theta[:] = np.linspace(-0.5, 0.5, f)
    var[:] = np.linspace(0.5, 1.5, f)
    log_var = pk.View([f], pk.double)
    log_var[:] = np.log(2.0 * pi * np.array(var))
    policy = pk.MDRangePolicy([0, 0], [n, f])
    seconds = 0.0
    for timed in (False, True):
        pk.fence()
        timer = pk.Timer()
        pk.parallel_for(policy, center, d=d, X=X, theta=theta)
        pk.parallel_for(policy, square, d=d)
        pk.parallel_for(policy, over_var, d=d, var=var)
        pk.parallel_for(policy, add_log_var, d=d, log_var=log_var)
        pk.parallel_for(policy, halve, out=out, d=d)
        pk.fence()
        seconds = timer.seconds()
    return seconds, np.array(out)


def fdtd_2d(n):
    """NPBench fdtd_2d, 20 time steps over rows (PyFuser's F, 2 kernels): the
    ey and ex updates may fuse but share only a row of hz (not fused: no
    shared point); the hz update reads ey's next row."""
    tmax = 20
    ex, ey, hz = (pk.View([n, n], pk.double) for _ in range(3))
    fict = pk.View([tmax], pk.double)
    grid = np.add.outer(np.arange(n, dtype=np.float64), np.arange(n, dtype=np.float64))
    seconds = 0.0
    for timed in (False, True):
        ex[:] = grid * 1.0 / n
        ey[:] = grid * 2.0 / n
        hz[:] = grid * 3.0 / n
        fict[:] = np.arange(tmax, dtype=np.float64)
        pk.fence()
        timer = pk.Timer()
        for t in range(tmax):
            pk.parallel_for(n, fdtd_ey, ey=ey, hz=hz, fict=fict, t=t)
            pk.parallel_for(n, fdtd_ex, ex=ex, hz=hz)
            pk.parallel_for(n, fdtd_hz, hz=hz, ex=ex, ey=ey)
        pk.fence()
        seconds = timer.seconds()
    return seconds, np.array(hz)


SUBJECTS = {
    # name: (function, size on CPUs, size on GPUs, PyFuser EPYC O, A100 O)
    "nstream x50 (host code)": (nstream50, 1 << 22, 1 << 25, 2.28, 25.41),
    "transpose x50 (host code)": (transpose50, 1024, 4096, 3.52, 45.34),
    "BabelStream + dot (host code)": (babelstream, 1 << 24, 1 << 27, 2.57, 2.25),
    "Gaussian naive Bayes, 5 kernels (host code)": (gaussian_nb, 1 << 17, 1 << 21, 4.30, 4.28),
    "fdtd_2d, 20 steps (host code; not fused: rows)": (fdtd_2d, 1024, 4096, 1.33, 0.73),
    "dot + norm x20 (host code; 2 reductions)": (dot_norm20, 1 << 22, 1 << 25, 0.0, 0.0),
}
