# expect: 7:5: print() is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    print(i)
