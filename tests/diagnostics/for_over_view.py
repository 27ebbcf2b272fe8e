# expect: 7:14: only 'for NAME in range(...)' loops are supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    for x in v:
        pass
