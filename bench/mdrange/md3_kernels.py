"""Rank-3 MDRange kernels for bench/mdrange/gpu_flat.py, as PyKokkos users
write them: a 7-point Jacobi sweep, the copy back, and a face copy."""
import pykokkos as pk


@pk.workunit
def jacobi3(i: int, j: int, k: int, u: pk.View3D[pk.double], unew: pk.View3D[pk.double]):
    unew[i][j][k] = (u[i - 1][j][k] + u[i + 1][j][k] + u[i][j - 1][k] + u[i][j + 1][k] +
                     u[i][j][k - 1] + u[i][j][k + 1]) * (1.0 / 6.0)


@pk.workunit
def copy3(i: int, j: int, k: int, unew: pk.View3D[pk.double], u: pk.View3D[pk.double]):
    u[i][j][k] = unew[i][j][k]


def run_jacobi3(u, unew, n):
    pk.parallel_for(pk.MDRangePolicy([1, 1, 1], [n + 1, n + 1, n + 1]), jacobi3, u=u, unew=unew)


def run_copy3(unew, u, n):
    pk.parallel_for(pk.MDRangePolicy([1, 1, 1], [n + 1, n + 1, n + 1]), copy3, unew=unew, u=u)


def run_face(unew, u, n, d):
    """The plane one cell thick at index 1 of dimension d (a halo face)."""
    hi = [n + 1, n + 1, n + 1]
    hi[d] = 2
    pk.parallel_for(pk.MDRangePolicy([1, 1, 1], hi), copy3, unew=unew, u=u)
