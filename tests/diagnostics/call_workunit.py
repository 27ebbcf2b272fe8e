# expect: 10:5: workunit 'k' cannot be called from a kernel
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = 1.0

@pk.workunit
def k2(i: int, v: pk.View1D[float]):
    k(i, v)
