"""Float floor division and remainder as Python computes them (divmod):
`a == (a // b) * b + a % b`, so `1.0 // 0.1` is 9.0 (floor(1.0 / 0.1) would
be 10.0), and a zero remainder takes the divisor's sign (`-4.0 % 2.0` is
0.0, `4.0 % -2.0` is -0.0). float64 and float32 against Python's own
results, signs of zeros included; a cell index `x // dx` as particle codes
compute it."""
import math

import numpy as np
import pykokkos as pk


@pk.workunit
def divmod64(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double],
             q: pk.View1D[pk.double], r: pk.View1D[pk.double]):
    q[i] = a[i] // b[i]
    r[i] = a[i] % b[i]


@pk.workunit
def divmod32(i: int, a: pk.View1D[pk.float32], b: pk.View1D[pk.float32],
             q: pk.View1D[pk.float32], r: pk.View1D[pk.float32]):
    q[i] = a[i] // b[i]
    r[i] = a[i] % b[i]


@pk.workunit
def cells(i: int, x: pk.View1D[pk.double], dx: float, cell: pk.View1D[pk.int64]):
    cell[i] = int(x[i] // dx)


pairs = [(1.0, 0.1), (-4.0, 2.0), (4.0, -2.0), (-0.0, 2.0), (0.7, 0.1), (5.0, 0.5),
         (-7.5, 2.0), (7.5, -2.0), (1e30, 3.0), (-1.0, 0.3), (0.3, 0.1), (2.0, 3.0)]
n = len(pairs)
checks = []
for dt, kernel in ((np.float64, divmod64), (np.float32, divmod32)):
    a = pk.View([n], pk.double if dt == np.float64 else pk.float32)
    b = pk.View([n], pk.double if dt == np.float64 else pk.float32)
    q = pk.View([n], pk.double if dt == np.float64 else pk.float32)
    r = pk.View([n], pk.double if dt == np.float64 else pk.float32)
    a[:] = np.array([p[0] for p in pairs], dtype=dt)
    b[:] = np.array([p[1] for p in pairs], dtype=dt)
    pk.parallel_for(n, kernel, a=a, b=b, q=q, r=r)
    av, bv = np.asarray(a), np.asarray(b)
    for i in range(n):
        wq, wr = np.floor_divide(av[i], bv[i]), np.remainder(av[i], bv[i])   # Python's rules
        gq, gr = np.asarray(q)[i], np.asarray(r)[i]
        same = (gq == wq and gr == wr and math.copysign(1, gq) == math.copysign(1, wq)
                and math.copysign(1, gr) == math.copysign(1, wr))
        checks.append((f"{dt.__name__} {pairs[i]}", same, True))
x = pk.View([5], pk.double)
x[:] = np.array([0.0, 0.3, 0.7, 1.0, 2.9])
cell = pk.View([5], pk.int64)
pk.parallel_for(5, cells, x=x, dx=0.1, cell=cell)
checks.append(("cells", np.asarray(cell).tolist(), [int(v // 0.1) for v in np.asarray(x)]))
bad = [c[0] for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
