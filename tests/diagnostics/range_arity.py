# expect: 7:14: wrong number of arguments to 'range': expected 1 to 3, got 4
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    for j in range(0, 10, 2, 1):
        v[j] = 0.0
