"""Python's builtin pow(a, b) in a kernel is a ** b: exact for integers (3 ** 39
needs all 63 bits; as math.pow through a double it lost the last digits) and
the float power otherwise; `from math import pow` keeps math's. Against Python."""
import math

import numpy as np
import pykokkos as pk


@pk.workunit
def powers(i: int, e: pk.View1D[pk.int64], ints: pk.View1D[pk.int64],
           x: pk.View1D[pk.double], floats: pk.View1D[pk.double]):
    ints[i] = pow(3, e[i]) + pow(-2, e[i] % 7)
    floats[i] = pow(x[i], 0.5) + pow(2, 0.25 * e[i])


n = 6
ev = np.array([0, 1, 17, 33, 38, 39], dtype=np.int64)
xv = np.array([0.0, 0.25, 2.0, 9.0, 1e10, 3.5])
e, x = pk.array(ev), pk.array(xv)
ints = pk.View([n], pk.int64)
floats = pk.View([n], pk.double)
pk.parallel_for(n, powers, e=e, ints=ints, x=x, floats=floats)
want_i = [pow(3, int(k)) + pow(-2, int(k) % 7) for k in ev]
want_f = [pow(float(a), 0.5) + pow(2, 0.25 * int(k)) for a, k in zip(xv, ev)]
bad = []
if np.asarray(ints).tolist() != want_i:
    bad.append(f"ints {np.asarray(ints).tolist()} != {want_i}")
if not all(math.isclose(g, w, rel_tol=1e-15) for g, w in zip(np.asarray(floats), want_f)):
    bad.append(f"floats {np.asarray(floats).tolist()} != {want_f}")
print("OK" if not bad else f"BAD {bad}")
