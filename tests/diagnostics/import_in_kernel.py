# expect: 7:5: imports are not allowed inside kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    import os
    v[i] = 1.0
