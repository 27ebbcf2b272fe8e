# expect: 7:5: 'with' is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    with open("f") as f:
        v[i] = 1.0
