# expect: 6:39: unknown type 'pk.float128'
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float], s: pk.float128):
    v[i] = 1.0
