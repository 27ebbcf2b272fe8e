# expect: 6:5: 'nonlocal' is only meaningful inside a nested def
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    nonlocal v
    v[i] = 1.0
