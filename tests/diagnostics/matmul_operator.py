# expect: 7:11: the '@' operator is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    x = v @ v
