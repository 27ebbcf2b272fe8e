"""NPBench adi (alternating direction implicit) as a PyKokkos program:
per-step time plain vs pk.Graph replay (bench/graphs/harness.py). Each
half step solves one tridiagonal system per row (a loop inside the kernel),
rows in parallel. Usage: python3 adi.py [N STEPS]"""
# test-args: 20 10
import os
import sys

import numpy as np

import pykokkos as pk

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import args, measure  # noqa: E402


@pk.workunit
def column_sweep(i: int, u: pk.View2D[pk.double], v: pk.View2D[pk.double],
                 p: pk.View2D[pk.double], q: pk.View2D[pk.double],
                 a: float, b: float, c: float, d: float, f: float):
    n: int = u.extent(0)
    v[0][i] = 1.0
    p[i][0] = 0.0
    q[i][0] = v[0][i]
    for j in range(1, n - 1):
        p[i][j] = -c / (a * p[i][j - 1] + b)
        q[i][j] = (-d * u[j][i - 1] + (1.0 + 2.0 * d) * u[j][i] - f * u[j][i + 1] -
                   a * q[i][j - 1]) / (a * p[i][j - 1] + b)
    v[n - 1][i] = 1.0
    for jj in range(1, n - 1):
        j: int = n - 1 - jj
        v[j][i] = p[i][j] * v[j + 1][i] + q[i][j]


@pk.workunit
def row_sweep(i: int, u: pk.View2D[pk.double], v: pk.View2D[pk.double],
              p: pk.View2D[pk.double], q: pk.View2D[pk.double],
              a: float, c: float, d: float, e: float, f: float):
    n: int = u.extent(0)
    u[i][0] = 1.0
    p[i][0] = 0.0
    q[i][0] = u[i][0]
    for j in range(1, n - 1):
        p[i][j] = -f / (d * p[i][j - 1] + e)
        q[i][j] = (-a * v[i - 1][j] + (1.0 + 2.0 * a) * v[i][j] - c * v[i + 1][j] -
                   d * q[i][j - 1]) / (d * p[i][j - 1] + e)
    u[i][n - 1] = 1.0
    for jj in range(1, n - 1):
        j: int = n - 1 - jj
        u[i][j] = p[i][j] * u[i][j + 1] + q[i][j]


def coefficients(n, tsteps):
    dx, dy, dt = 1.0 / n, 1.0 / n, 1.0 / tsteps
    mul1, mul2 = 2.0 * dt / (dx * dx), 1.0 * dt / (dy * dy)
    a, d = -mul1 / 2.0, -mul2 / 2.0
    return dict(a=a, b=1.0 + mul2, c=a, d=d, e=1.0 + mul2, f=d)


def make(n):
    u = np.fromfunction(lambda i, j: (i + n - j) / n, (n, n))
    return pk.array(u), pk.View([n, n], pk.double), pk.View([n, n], pk.double), \
        pk.View([n, n], pk.double)


def step(u, v, p, q, k):
    n = u.shape[0]
    pk.parallel_for(pk.RangePolicy(1, n - 1), column_sweep, u=u, v=v, p=p, q=q,
                    a=k["a"], b=k["b"], c=k["c"], d=k["d"], f=k["f"])
    pk.parallel_for(pk.RangePolicy(1, n - 1), row_sweep, u=u, v=v, p=p, q=q,
                    a=k["a"], c=k["c"], d=k["d"], e=k["e"], f=k["f"])


def reference(s, steps, k):
    u, v, p, q = s
    n = u.shape[0]
    a, b, c, d, e, f = (k[x] for x in "abcdef")
    for _ in range(steps):
        v[0, 1:n - 1] = 1.0
        p[1:n - 1, 0] = 0.0
        q[1:n - 1, 0] = v[0, 1:n - 1]
        for j in range(1, n - 1):
            p[1:n - 1, j] = -c / (a * p[1:n - 1, j - 1] + b)
            q[1:n - 1, j] = (-d * u[j, 0:n - 2] + (1.0 + 2.0 * d) * u[j, 1:n - 1] - f * u[j, 2:n] -
                             a * q[1:n - 1, j - 1]) / (a * p[1:n - 1, j - 1] + b)
        v[n - 1, 1:n - 1] = 1.0
        for j in range(n - 2, 0, -1):
            v[j, 1:n - 1] = p[1:n - 1, j] * v[j + 1, 1:n - 1] + q[1:n - 1, j]
        u[1:n - 1, 0] = 1.0
        p[1:n - 1, 0] = 0.0
        q[1:n - 1, 0] = u[1:n - 1, 0]
        for j in range(1, n - 1):
            p[1:n - 1, j] = -f / (d * p[1:n - 1, j - 1] + e)
            q[1:n - 1, j] = (-a * v[0:n - 2, j] + (1.0 + 2.0 * a) * v[1:n - 1, j] - c * v[2:n, j] -
                             d * q[1:n - 1, j - 1]) / (d * p[1:n - 1, j - 1] + e)
        u[1:n - 1, n - 1] = 1.0
        for j in range(n - 2, 0, -1):
            u[1:n - 1, j] = p[1:n - 1, j] * u[1:n - 1, j + 1] + q[1:n - 1, j]
    return [u, v, p, q]


if __name__ == "__main__":
    n, steps = args([200, 100])
    k = coefficients(n, 50)
    sys.exit(measure("adi", f"N={n}", lambda: make(n) + (k,), step,
                     lambda s, t: reference(s[:4], t, k), steps, blocks=3))
