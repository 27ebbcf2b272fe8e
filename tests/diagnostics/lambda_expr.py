# expect: 7:9: lambda is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    f = lambda x: x + 1
