"""pk.real Views: float64 by default (PKC_REAL switches it), doubled in a
kernel."""
import numpy as np
import pykokkos as pk

@pk.workunit
def k(i: int, x: pk.View1D[pk.real]):
    x[i] = x[i] * 2.0

x = pk.View([3], pk.real)
x.fill(1.5)
pk.parallel_for(3, k, x=x)
print("OK" if np.asarray(x).dtype == np.float64 and list(np.asarray(x)) == [3.0, 3.0, 3.0] else f"BAD {np.asarray(x)}")
