# expect: 8:5: 'del' is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    x = 1.0
    del x
