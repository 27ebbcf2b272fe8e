# expect: 7:5: tuple assignment is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    a, b = 1.0, 2.0
