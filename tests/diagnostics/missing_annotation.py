# flags: --strict-types
# expect: 7:36: cannot infer the type of parameter 'scale' of 'k' from its call sites; annotate it (scale: float)
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float], scale):
    v[i] = scale
