# expect: 7:12: syntax error
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = = 1.0
