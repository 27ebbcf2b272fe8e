# expect: 6:36: parameter 'scale' needs a type annotation, e.g. 'scale:
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float], scale):
    v[i] = scale
