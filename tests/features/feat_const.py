"""Module constants (int and float, one derived from the other) read in a
kernel: their values (and constexpr names in the C++)."""
import numpy as np
import pykokkos as pk

SCALE = 3
HALF: float = SCALE / 2.0

@pk.workunit
def k(i: int, out: pk.View1D[pk.double]):
    out[i] = i * SCALE + HALF

out = pk.View([3], pk.double)
pk.parallel_for(3, k, out=out)
print("OK" if list(np.asarray(out)) == [1.5, 4.5, 7.5] else f"BAD {np.asarray(out)}")
