# expect: 7:28: keyword arguments are not supported in calls inside kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = math.atan2(1.0, x=2.0)
