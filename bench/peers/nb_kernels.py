"""The Numba contender of bench/peers/run.py: the same kernels as
pk_kernels.py, written as Numba users write them (`@njit(parallel=True)`,
`prange` over the outer index, numpy arrays). Compiled on first call (run.py
warms every kernel up before timing); no fastmath, no explicit SIMD."""
import math

from numba import njit, prange


@njit(parallel=True)
def nstream(A, B, C, scalar):
    for i in prange(A.shape[0]):
        A[i] += B[i] + scalar * C[i]


@njit(parallel=True)
def copy(a, c):
    for i in prange(a.shape[0]):
        c[i] = a[i]


@njit(parallel=True)
def mul(b, c, scalar):
    for i in prange(b.shape[0]):
        b[i] = scalar * c[i]


@njit(parallel=True)
def add(a, b, c):
    for i in prange(a.shape[0]):
        c[i] = a[i] + b[i]


@njit(parallel=True)
def triad(a, b, c, scalar):
    for i in prange(a.shape[0]):
        a[i] = b[i] + scalar * c[i]


@njit(parallel=True)
def dot(a, b):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * b[i]
    return s


@njit(parallel=True)
def stencil5(inp, out):
    n = inp.shape[0]
    for i in prange(1, n - 1):
        for j in range(1, n - 1):
            out[i, j] = 0.5 * inp[i, j] + 0.125 * (inp[i - 1, j] + inp[i + 1, j]
                                                   + inp[i, j - 1] + inp[i, j + 1])


@njit(parallel=True)
def transpose(A, B, tile):
    # Tiled like pkc's MDRangePolicy([0, 0], [n, n], [tile, tile]): the same
    # algorithm (an untiled transpose is a different, slower one).
    n = A.shape[0]
    nt = (n + tile - 1) // tile
    for it in prange(nt):
        for jt in range(nt):
            for i in range(it * tile, min(it * tile + tile, n)):
                for j in range(jt * tile, min(jt * tile + tile, n)):
                    B[i, j] += A[j, i]
                    A[j, i] += 1.0


@njit(parallel=True)
def gather(x, idx, y):
    for i in prange(y.shape[0]):
        y[i] = x[idx[i]]


@njit(parallel=True)
def gups(table, idx, datum):
    # Not atomic (Numba has no atomics on the CPU): concurrent updates of one
    # entry can be lost, as in pkc's non-atomic gups.
    for i in prange(idx.shape[0]):
        table[idx[i]] ^= datum


@njit(parallel=True)
def yAx(y, x, A):
    # One prange iteration per row (pkc: one team per row, TeamThreadRange
    # over the row); the inner product is a plain loop.
    N, M = A.shape
    result = 0.0
    for j in prange(N):
        temp2 = 0.0
        for i in range(M):
            temp2 += A[j, i] * x[i]
        result += y[j] * temp2
    return result


@njit(parallel=True)
def lj_force(L, rc2, x, num_neigh, neigh, f):
    for i in prange(x.shape[0]):
        xi = x[i, 0]
        yi = x[i, 1]
        zi = x[i, 2]
        fx = 0.0
        fy = 0.0
        fz = 0.0
        for k in range(num_neigh[i]):
            j = neigh[i, k]
            dx = xi - x[j, 0]
            dy = yi - x[j, 1]
            dz = zi - x[j, 2]
            dx -= L * math.floor(dx / L + 0.5)
            dy -= L * math.floor(dy / L + 0.5)
            dz -= L * math.floor(dz / L + 0.5)
            r2 = dx * dx + dy * dy + dz * dz
            if r2 < rc2:
                sr2 = 1.0 / r2
                sr6 = sr2 * sr2 * sr2
                fpair = 48.0 * sr6 * (sr6 - 0.5) * sr2
                fx += fpair * dx
                fy += fpair * dy
                fz += fpair * dz
        f[i, 0] = fx
        f[i, 1] = fy
        f[i, 2] = fz


@njit(parallel=True)
def increment(v):
    for i in prange(v.shape[0]):
        v[i] += 1.0
