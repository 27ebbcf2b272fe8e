# expect: 8:9: 'raise' is not supported in kernels: device code cannot
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    if i < 0:
        raise ValueError("negative")
