# expect: 8:12: math.round is not supported in kernels
import math
import pykokkos as pk


@pk.workunit
def k(i: int, v: pk.View1D[pk.double]):
    v[i] = math.round(v[i])
