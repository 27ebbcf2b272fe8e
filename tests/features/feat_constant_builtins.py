"""Module constants computed with Python's builtins and math's rounding
(NCELL = math.floor(L / RC), abs, min, max, round, float("inf")) fold as
constants with Python's values and types: math.floor/ceil/trunc and round
give ints, min/max the first extreme argument as it is. In kernels
math.floor/ceil/trunc give ints too (a bin index), and float("inf"),
float("-inf"), float("nan") are the special floats. Checked against
Python's own values of the same expressions."""
import math

import numpy as np
import pykokkos as pk

L, RC = 10.0, 2.5
NCELL = math.floor(L / RC)      # 4, an int
UP = math.ceil(7.2) * 2         # 16
TR = math.trunc(-2.5)           # -2
G = abs(-3)                     # 3
GF = abs(-2.5)                  # 2.5
MX = max(3, 7, 5)               # 7
MXF = max(2, 7.5, -1)           # 7.5
MN = min(2.5, -1.0)             # -1.0
RND = round(2.5)                # 2 (halves to even)
RND2 = round(-3.5)              # -4
BIG = float("inf")
NEG = float("-Infinity")


@pk.workunit
def constants(i: int, out: pk.View1D[pk.double], cells: pk.View1D[pk.int64]):
    if i == 0:
        out[0] = UP + TR + G + GF
        out[1] = MX + MXF + MN
        out[2] = RND + RND2
        out[3] = BIG
        out[4] = NEG
        out[5] = NCELL / 8      # true division of an int constant
    cells[i] = NCELL * i + MX // 2  # int constants stay ints


@pk.workunit
def binning(i: int, x: pk.View1D[pk.double], h: pk.View1D[pk.int32],
            low: pk.View1D[pk.double], dx: float):
    b = math.floor(x[i] / dx)                  # an int: an index
    pk.atomic_add(h, [b], 1)
    m: float = float("inf")
    if x[i] < m:
        m = x[i]
    low[i] = m + math.ceil(x[i]) // 2 - math.trunc(-x[i]) % 3
    if math.isnan(float("nan")) and float("-inf") < m:
        low[i] += 0.0


out = pk.View([6], pk.double)
cells = pk.View([5], pk.int64)
pk.parallel_for(5, constants, out=out, cells=cells)
want = [UP + TR + G + GF, MX + MXF + MN, RND + RND2, math.inf, -math.inf, NCELL / 8]
checks = [("constants", np.asarray(out).tolist(), want),
          ("int constants", np.asarray(cells).tolist(), [NCELL * i + MX // 2 for i in range(5)]),
          ("types", [type(v).__name__ for v in (NCELL, UP, TR, RND, MX, MXF, MN)],
           ["int", "int", "int", "int", "int", "float", "float"])]

xs = np.array([0.05, 0.15, 0.95, 0.5, 0.55, 0.999, 2.3, 7.9])
x = pk.View([len(xs)], pk.double)
x[:] = xs
h = pk.View([80], pk.int32)
low = pk.View([len(xs)], pk.double)
pk.parallel_for(len(xs), binning, x=x, h=h, low=low, dx=0.1)
checks.append(("bins", np.asarray(h).tolist(),
               np.bincount([math.floor(v / 0.1) for v in xs], minlength=80).tolist()))
checks.append(("ceil/trunc", np.asarray(low).tolist(),
               [v + math.ceil(v) // 2 - math.trunc(-v) % 3 for v in xs]))
bad = [c for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
