# expect: 7:5: View 'm' has rank 2 but is indexed with 1 index
import pykokkos as pk
import math

@pk.workunit
def k(i: int, m: pk.View2D[float]):
    m[i] = 1.0
