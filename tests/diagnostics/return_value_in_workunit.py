# expect: 7:12: a workunit cannot return a value
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    return v[i]
