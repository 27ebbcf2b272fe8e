# expect: 7:11: slices with a step are not supported for subviews
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float], w: pk.View1D[float]):
    r = v[1:3:2]
