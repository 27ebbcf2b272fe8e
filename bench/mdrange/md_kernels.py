"""The MDRange kernels bench/mdrange/ab.py times (PyKokkos style: each
workunit typed from the pk.MDRangePolicy at its launch)."""
import pykokkos as pk


@pk.workunit
def stencil5(i: int, j: int, inp: pk.View2D[pk.double], out: pk.View2D[pk.double]):
    out[i][j] = 0.5 * inp[i][j] + 0.125 * (inp[i - 1][j] + inp[i + 1][j]
                                           + inp[i][j - 1] + inp[i][j + 1])


@pk.workunit
def transpose(i: int, j: int, A: pk.View2D[pk.double], B: pk.View2D[pk.double]):
    B[i][j] += A[j][i]
    A[j][i] += 1.0


@pk.workunit
def jacobi3(i: int, j: int, k: int, u: pk.View3D[pk.double], v: pk.View3D[pk.double]):
    v[i][j][k] = (u[i - 1][j][k] + u[i + 1][j][k] + u[i][j - 1][k] + u[i][j + 1][k]
                  + u[i][j][k - 1] + u[i][j][k + 1]) / 6.0


@pk.workunit
def sum2(i: int, j: int, acc: pk.Acc[pk.double], A: pk.View2D[pk.double]):
    acc += A[i][j]


def run_stencil(a, b, n):
    pk.parallel_for("stencil", pk.MDRangePolicy([1, 1], [n - 1, n - 1]), stencil5, inp=a, out=b)


def run_transpose(a, b, n):
    pk.parallel_for("transpose", pk.MDRangePolicy([0, 0], [n, n], [32, 32]), transpose, A=a, B=b)


def run_jacobi3(u, v, n):
    pk.parallel_for("jacobi3", pk.MDRangePolicy([1, 1, 1], [n - 1, n - 1, n - 1]), jacobi3, u=u, v=v)


def run_sum2(a, n):
    return pk.parallel_reduce("sum2", pk.MDRangePolicy([0, 0], [n, n]), sum2, A=a)
