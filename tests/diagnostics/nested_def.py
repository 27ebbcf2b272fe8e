# expect: 7:5: nested functions are not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    def helper(x):
        return x
    v[i] = 1.0
