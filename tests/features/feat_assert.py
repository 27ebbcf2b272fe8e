"""A device-side `assert cond, message` that holds: the kernel runs on and
writes its results."""
import numpy as np
import pykokkos as pk

@pk.workunit
def k(i: int, x: pk.View1D[pk.double]):
    assert x[i] >= 0.0, "x must be non-negative"
    x[i] += 1.0

x = pk.View([3], pk.double)
pk.parallel_for(3, k, x=x)
print("OK" if list(np.asarray(x)) == [1.0, 1.0, 1.0] else f"BAD {np.asarray(x)}")
