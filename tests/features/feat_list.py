"""A fixed-size List[float] local in a kernel, written in a loop and read back."""
from typing import List
import numpy as np
import pykokkos as pk

@pk.workunit
def k(i: int, out: pk.View1D[pk.double]):
    xs: List[float] = [0.0, 0.0, 0.0]
    for d in range(3):
        xs[d] = float(i + d)
    out[i] = xs[0] + xs[1] * xs[2]

out = pk.View([3], pk.double)
pk.parallel_for(3, k, out=out)
print("OK" if list(np.asarray(out)) == [2.0, 7.0, 14.0] else f"BAD {np.asarray(out)}")
