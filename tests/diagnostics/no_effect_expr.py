# expect: 7:5: this expression statement has no effect
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] + 1.0
