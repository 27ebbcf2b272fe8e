# expect: 7:5: 'global' is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    global N
    v[i] = 0.0
