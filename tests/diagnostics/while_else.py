# expect: 9:5: 'while ... else' is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    while i > 0:
        break
    else:
        pass
