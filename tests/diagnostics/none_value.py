# expect: 7:9: None is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    x = None
