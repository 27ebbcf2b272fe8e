# expect: 7:12: unknown function 'frobnicate'
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = frobnicate(1.0)
