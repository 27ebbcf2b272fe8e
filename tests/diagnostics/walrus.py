# expect: 7:9: the walrus operator ':=' is not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    if (n := i + 1) > 3:
        v[i] = 1.0
