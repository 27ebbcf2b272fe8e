# expect: 6:36: default values are not supported for kernel parameters
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float], s: float = 1.0):
    v[i] = s
