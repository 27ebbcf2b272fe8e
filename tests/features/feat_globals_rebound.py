"""Module globals as Python reads them: a name bound once to a constant
(also math.pi, np.pi, math.sqrt(2.0), int(3.7)) is folded into the kernel;
a name bound again, changed with +=, or declared `global` in a function is
read at each launch (a kernel launched after `offset = -1` sees -1, not the
script's last value). Checked against the same expressions in Python."""
import math
from math import pi, sqrt

import numpy as np
import pykokkos as pk

TWO_PI = 2.0 * math.pi
NEG_PI = -np.pi
ROOT = sqrt(pi) + math.sqrt(2.0)
N = int(3.7) * 2
ANGLE = math.atan2(1.0, 2.0)
offset = 3
scale = 2 * np.pi
count = 10


@pk.workunit
def shifted(i: int, out: pk.View1D[pk.double]):
    out[i] = i + offset


@pk.workunit
def folded(i: int, out: pk.View1D[pk.double]):
    out[i] = TWO_PI * i + NEG_PI + ROOT + N + ANGLE + scale * count


def bump():
    global count
    count = 20


def want_folded(n):
    return [TWO_PI * i + NEG_PI + ROOT + N + ANGLE + scale * count for i in range(n)]


checks = []
out = pk.View([4], pk.double)
pk.parallel_for(4, shifted, out=out)
checks.append(("first value", np.asarray(out).tolist(), [i + 3.0 for i in range(4)]))
offset = -1
pk.parallel_for(4, shifted, out=out)
checks.append(("rebound", np.asarray(out).tolist(), [i - 1.0 for i in range(4)]))
offset += 10
pk.parallel_for(4, shifted, out=out)
checks.append(("+=", np.asarray(out).tolist(), [i + 9.0 for i in range(4)]))

pk.parallel_for(4, folded, out=out)
checks.append(("math constants", np.asarray(out).tolist(), want_folded(4)))
scale = 1.5
bump()
pk.parallel_for(4, folded, out=out)
checks.append(("float rebound, global in a function", np.asarray(out).tolist(), want_folded(4)))

bad = [c for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
