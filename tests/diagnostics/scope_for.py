# expect: 9:12: name 's' is not defined here: it was bound inside the 'for'
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float], n: int):
    for j in range(n):
        s = v[j]
    v[i] = s
