# expect: 7:21: dimension 1 is out of range: View 'v' has rank 1
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = v.extent(1)
