"""Python arithmetic and control flow in a kernel: // and % of negatives, **,
while, range with a negative step, math functions; checked against the same
Python."""
import math
import numpy as np
import pykokkos as pk

@pk.workunit
def k(i: int, out: pk.View1D[pk.double]):
    a: int = -7
    s: float = float(a // 2) + float(a % 3) + float(2 ** 3)
    n: int = 0
    while n < 3:
        n += 1
    for j in range(5, 0, -2):
        s += j
    s += 1.0 if 0 < i < 5 else 0.0
    s += math.sqrt(16.0) + math.pi - math.pi
    out[i] = s + n / 2

out = pk.View([2], pk.double)
pk.parallel_for(2, k, out=out)
# -4 + 2 + 8 + 9 + (0|1) + 4 + 1.5
print("OK" if list(np.asarray(out)) == [20.5, 21.5] else f"BAD {np.asarray(out)}")
