import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    i = 3
    v[i] = 1.0
