# expect: 7:12: name 'y' is not defined
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = y + 1.0
