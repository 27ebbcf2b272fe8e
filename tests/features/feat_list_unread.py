"""A List local that the kernel only stores into (xs[k] = ..., ys[k] += ...)
and never reads builds and the kernel still runs: g++ and nvcc warned "set
but not used" on the generated C++ (a warning pkc treats as its own bug, and
refuses the build), so the array is declared [[maybe_unused]] (nvcc does not
count (void)xs as a use)."""
from typing import List
import numpy as np
import pykokkos as pk


@pk.workunit
def k(i: int, out: pk.View1D[pk.double]):
    xs: List[float] = [0.0, 0.0, 0.0]
    xs[i % 3] = 1.0
    ys: List[List[int]] = [[0, 0], [0, 0]]
    ys[1][i % 2] += 2
    out[i] = 2.0 * i


out = pk.View([4], pk.double)
pk.parallel_for(4, k, out=out)
print("OK" if list(np.asarray(out)) == [0.0, 2.0, 4.0, 6.0] else f"BAD {np.asarray(out)}")
