# expect: 6:11: subview of 'v' has 3 indices but the View has rank 2
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View2D[float], w: pk.View1D[float]):
    row = v[i, :, 0]
