"""A workunit without annotations: parameter types inferred from the call's
arguments (a View and a float)."""
import numpy as np
import pykokkos as pk

@pk.workunit
def k(i, y_view, a):
    y_view[i] = a * i

N = 4
y = pk.View([N], pk.double)
pk.parallel_for(N, k, y_view=y, a=2.0)
print("OK" if list(np.asarray(y)) == [0.0, 2.0, 4.0, 6.0] else f"BAD {np.asarray(y)}")
