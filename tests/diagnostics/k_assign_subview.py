# expect: 6:5: cannot assign to a subview
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View2D[float]):
    v[i, :] = 1.0
