# expect: 7:12: math.factorial is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = math.factorial(3)
