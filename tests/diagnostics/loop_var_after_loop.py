# expect: 9:12: name 'j' is not defined here: it was bound inside the 'for'
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float], n: int):
    for j in range(n):
        v[j] = 0.0
    v[i] = j
