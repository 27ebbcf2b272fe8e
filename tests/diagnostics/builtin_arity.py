# expect: 7:12: wrong number of arguments to 'math.sqrt': expected 1, got 2
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = math.sqrt(1.0, 2.0)
