"""A View with the Atomic trait (pk.ViewTypeInfo(trait=pk.Atomic)): 1000 racing
+= into two elements give exactly 500 each."""
import numpy as np
import pykokkos as pk

@pk.workunit(h=pk.ViewTypeInfo(trait=pk.Atomic))
def k(i: int, h: pk.View1D[pk.double]):
    h[i % 2] += 1.0

h = pk.View([2], pk.double, trait=pk.Atomic)
pk.parallel_for(1000, k, h=h)
print("OK" if list(np.asarray(h)) == [500.0, 500.0] else f"BAD {np.asarray(h)}")
