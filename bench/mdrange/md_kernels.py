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


@pk.function
def pressure(r: float, u: float, v: float, e: float) -> float:
    return 0.4 * (e - 0.5 * (u * u + v * v) / r)


@pk.workunit
def euler_x(i: int, j: int, r: pk.View2D[pk.double], u: pk.View2D[pk.double],
            v: pk.View2D[pk.double], e: pk.View2D[pk.double], fr: pk.View2D[pk.double],
            fu: pk.View2D[pk.double], fv: pk.View2D[pk.double], fe: pk.View2D[pk.double]):
    # the central x-flux of the 2-D Euler equations at face (i, j + 1/2), the mean
    # of the two cells' fluxes: four Views in, four out, one function called twice
    pa: float = pressure(r[i][j], u[i][j], v[i][j], e[i][j])
    pb: float = pressure(r[i][j + 1], u[i][j + 1], v[i][j + 1], e[i][j + 1])
    fr[i][j] = 0.5 * (u[i][j] + u[i][j + 1])
    fu[i][j] = 0.5 * (u[i][j] * u[i][j] / r[i][j] + pa + u[i][j + 1] * u[i][j + 1] / r[i][j + 1] + pb)
    fv[i][j] = 0.5 * (u[i][j] * v[i][j] / r[i][j] + u[i][j + 1] * v[i][j + 1] / r[i][j + 1])
    fe[i][j] = 0.5 * (u[i][j] / r[i][j] * (e[i][j] + pa)
                      + u[i][j + 1] / r[i][j + 1] * (e[i][j + 1] + pb))


def run_stencil(a, b, n):
    pk.parallel_for("stencil", pk.MDRangePolicy([1, 1], [n - 1, n - 1]), stencil5, inp=a, out=b)


def run_transpose(a, b, n):
    pk.parallel_for("transpose", pk.MDRangePolicy([0, 0], [n, n], [32, 32]), transpose, A=a, B=b)


def run_jacobi3(u, v, n):
    pk.parallel_for("jacobi3", pk.MDRangePolicy([1, 1, 1], [n - 1, n - 1, n - 1]), jacobi3, u=u, v=v)


def run_sum2(a, n):
    return pk.parallel_reduce("sum2", pk.MDRangePolicy([0, 0], [n, n]), sum2, A=a)


def run_euler_x(ins, outs, n):
    pk.parallel_for("euler_x", pk.MDRangePolicy([0, 0], [n, n - 1]), euler_x, r=ins[0], u=ins[1],
                    v=ins[2], e=ins[3], fr=outs[0], fu=outs[1], fv=outs[2], fe=outs[3])
