"""Tuple assignment in kernels, as Python does it: new locals from values
written out (a, b = x, y; [p, q] = [i, i + 1]), a swap of locals
(a, b = b, a) and of View elements (x[j], x[k] = x[k], x[j]), every value
read before any target is written. Checked against the same steps in
Python."""
import numpy as np
import pykokkos as pk


@pk.workunit
def tup(i: int, x: pk.View1D[pk.double], out: pk.View2D[pk.double], n: int):
    a, b = 1.0 * i, 2.0
    a, b = b, a
    lo, hi = 0, n - 1
    s: float = 0.0
    for k in range(lo, hi):
        s += x[k]
    c, d = a + b, a - b
    out[i][0] = a
    out[i][1] = b
    out[i][2] = c * d
    out[i][3] = s
    [p, q] = [i, i + 1]
    out[i][4] = p * q


@pk.workunit
def swap_pairs(i: int, x: pk.View1D[pk.double]):
    x[2 * i], x[2 * i + 1] = x[2 * i + 1], x[2 * i]

n = 6
x = pk.View([n], pk.double)
x[:] = np.arange(n) * 1.5
out = pk.View([n, 5], pk.double)
pk.parallel_for(n, tup, x=x, out=out, n=n)
o = np.asarray(out)
ok = True
for i in range(n):
    a, b = 2.0, 1.0 * i
    ok &= list(o[i]) == [a, b, (a + b) * (a - b), float(np.sum(np.arange(n - 1) * 1.5)), i * (i + 1)]
pk.parallel_for(n // 2, swap_pairs, x=x)
ok &= list(np.asarray(x)) == [1.5, 0.0, 4.5, 3.0, 7.5, 6.0]
print("OK" if ok else f"BAD {o} {np.asarray(x)}")
