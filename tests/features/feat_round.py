"""Python's round() in kernels: round(x) is the nearest int, halves to even
(a bin index round(x / dx)); round(x, n) rounds to n decimals as numpy.round
does (x * 10^n to the nearest, halves to even, divided back), in x's float
type; round of an int is the int. Checked against Python and numpy."""
import numpy as np
import pykokkos as pk


@pk.workunit
def rounded(i: int, x: pk.View1D[pk.double], xf: pk.View1D[pk.float32],
            r: pk.View1D[pk.int64], r2: pk.View1D[pk.double], rf: pk.View1D[pk.float32],
            rn: pk.View1D[pk.double]):
    r[i] = round(x[i])
    r2[i] = round(x[i], 2)
    rf[i] = round(xf[i] * 3, 1)
    rn[i] = round(x[i] * 1000.0, -2)


@pk.workunit
def bin_of(i: int, x: pk.View1D[pk.double], b: pk.View1D[pk.int32], dx: float):
    b[i] = round(x[i] / dx) + round(i)


values = [0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 1.005, 3.14159, -2.71828, 1e10 + 0.5, 7.0, -0.49,
          123.456, -987.654]
n = len(values)
x = pk.View([n], pk.double)
x[:] = np.array(values)
xf = pk.View([n], pk.float32)
xf[:] = np.array(values, dtype=np.float32)
r = pk.View([n], pk.int64)
r2 = pk.View([n], pk.double)
rf = pk.View([n], pk.float32)
rn = pk.View([n], pk.double)
pk.parallel_for(n, rounded, x=x, xf=xf, r=r, r2=r2, rf=rf, rn=rn)
b = pk.View([n], pk.int32)
pk.parallel_for(n, bin_of, x=x, b=b, dx=0.25)

xs = np.array(values)
checks = [
    ("round(x)", np.asarray(r).tolist(), [round(v) for v in values]),
    ("round(x, 2)", np.asarray(r2).tolist(), np.round(xs, 2).tolist()),
    ("round(float32, 1)", np.asarray(rf).tolist(),
     np.round(np.array(values, dtype=np.float32) * np.float32(3), 1).tolist()),
    ("round(x, -2)", np.asarray(rn).tolist(), np.round(xs * 1000.0, -2).tolist()),
    ("bin index", np.asarray(b).tolist(),
     np.array([round(v / 0.25) + i for i, v in enumerate(values)]).astype(np.int32).tolist()),
]
bad = [c for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
