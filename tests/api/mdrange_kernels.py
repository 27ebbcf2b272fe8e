"""MDRange kernels in a module that never launches them (launched from
test_cross_file_mdrange.py): pkc cannot see their policy here, so it builds
them for a RangePolicy; the shim builds the MDRange variant at the first
MDRange launch."""
import pykokkos as pk


@pk.workunit
def fill(i: int, j: int, a: pk.View2D[pk.double], ny: int):
    a[i][j] = i * ny + j


@pk.workunit
def fill3(i, j, k, a, n):
    a[i][j][k] = (i * n + j) * n + k


@pk.workunit
def total(i: int, j: int, acc: pk.Acc[pk.double], a: pk.View2D[pk.double]):
    acc += a[i][j]


@pk.workunit
def scaled(i: int, n: int, a: pk.View1D[pk.double]):
    a[i] = n * i
