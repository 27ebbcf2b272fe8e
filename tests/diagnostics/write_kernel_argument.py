# expect: 7:5: cannot assign to 's': kernel arguments are read-only in
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float], s: float):
    s = 2.0
