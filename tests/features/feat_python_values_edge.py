"""Values a kernel computes as Python does, where C++ differs: math.ceil /
floor / trunc of a small negative float used as a float is 0.0, not C's -0.0
(atan2 tells them apart); a module constant `2 ** -1` is the float 0.5 (an int
to a negative power); a helper's default value that names a module constant
takes the constant even where the caller has a local of that name."""
import math

import numpy as np
import pykokkos as pk

HALF = 2 ** -1
KD = 5


def shifted(x: int, k: int = KD) -> int:
    return x + k


@pk.workunit
def edge(i: int, out: pk.View2D[pk.double], x: pk.View1D[pk.double]):
    KD: int = 100 * i
    out[i][0] = math.atan2(math.ceil(x[i]), -1.0)
    out[i][1] = math.atan2(math.trunc(x[i]), -1.0)
    out[i][2] = HALF * i
    out[i][3] = shifted(10 * i) + 0 * KD


x = np.array([-0.125, -0.75, 2.5])
out = np.zeros((3, 4))
pk.parallel_for(3, edge, out=out, x=x)
want = np.array([[math.atan2(math.ceil(v), -1.0), math.atan2(math.trunc(v), -1.0), 0.5 * i,
                  10 * i + 5] for i, v in enumerate(x)])
# a GPU's atan2 may be an ulp off; C's -0.0 gave -pi, 2 pi away
print("OK" if np.allclose(out, want, rtol=1e-14, atol=0) else f"BAD {out - want}")
