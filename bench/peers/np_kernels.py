"""The NumPy contender of bench/peers/run.py (and the reference every other
contender is checked against): the same kernels as whole-array expressions,
as NumPy users write them. NumPy runs them on one thread (its BLAS here is
Debian's reference BLAS, single-threaded too); expressions of several
operations make temporaries and pass over memory once per operation."""
import numpy as np


def nstream(A, B, C, scalar):
    A += B + scalar * C


def copy(a, c):
    np.copyto(c, a)


def mul(b, c, scalar):
    np.multiply(c, scalar, out=b)


def add(a, b, c):
    np.add(a, b, out=c)


def triad(a, b, c, scalar):
    np.add(b, scalar * c, out=a)


def dot(a, b):
    return float(np.dot(a, b))


def stencil5(inp, out):
    out[1:-1, 1:-1] = 0.5 * inp[1:-1, 1:-1] + 0.125 * (inp[:-2, 1:-1] + inp[2:, 1:-1]
                                                       + inp[1:-1, :-2] + inp[1:-1, 2:])


def transpose(A, B):
    B += A.T
    A += 1.0


def gather(x, idx, y):
    np.take(x, idx, out=y)


def gups(table, idx, datum):
    # ufunc.at applies every update, repeated indices included (table[idx] ^=
    # datum would apply a repeated index once): the correct NumPy GUPS.
    np.bitwise_xor.at(table, idx, datum)


def yAx(y, x, A):
    return float(y @ (A @ x))


def lj_force(L, rc2, x, num_neigh, neigh, f):
    # Padded neighbour slots (k >= num_neigh[i]) are masked out.
    K = neigh.shape[1]
    valid = np.arange(K)[None, :] < num_neigh[:, None]
    d = x[:, None, :] - x[neigh]
    d -= L * np.floor(d / L + 0.5)
    r2 = np.einsum("ikc,ikc->ik", d, d)
    inside = valid & (r2 < rc2)
    sr2 = 1.0 / np.where(inside, r2, 1.0)
    sr6 = sr2 * sr2 * sr2
    fpair = np.where(inside, 48.0 * sr6 * (sr6 - 0.5) * sr2, 0.0)
    np.einsum("ik,ikc->ic", fpair, d, out=f)


def increment(v):
    v += 1.0
