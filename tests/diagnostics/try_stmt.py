# expect: 7:5: 'try' is not supported in kernels: device code cannot
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    try:
        v[i] = 1.0
    except Exception:
        pass
