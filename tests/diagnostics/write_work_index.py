# expect: 6:5: cannot assign to 'i': the work index is read-only
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    i = 3
