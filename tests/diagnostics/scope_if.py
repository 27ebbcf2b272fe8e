# expect: 9:12: name 't' is not defined here: it was bound inside the 'if'
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    if i > 2:
        t = 1.0
    v[i] = t
