# expect: 6:5: 'yield' is not supported in kernels
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    yield v[i]
