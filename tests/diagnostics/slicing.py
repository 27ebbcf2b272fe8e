# expect: 7:14: slicing is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float], w: pk.View1D[float]):
    w[i] = v[1:3]
