# expect: 7:12: round(x, n) of an integer x is not supported in kernels
import pykokkos as pk


@pk.workunit
def k(i: int, v: pk.View1D[pk.int64]):
    v[i] = round(i, -1)
