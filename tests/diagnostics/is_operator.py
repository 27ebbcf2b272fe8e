# expect: 7:10: 'is', 'is not', 'in' and 'not in' are not supported in
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    if i is 3:
        v[i] = 1.0
