# expect: 6:35: layout arguments in View annotations are not supported yet
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View2D[float, pk.LayoutLeft]):
    v[i, 0] = 1.0
