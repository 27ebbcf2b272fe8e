"""C <cmath> names that PyKokkos kernels call bare, as upstream's lib/ufuncs.py
workunits do: fmax / fmin (a NaN operand loses), nearbyint (halves to even),
logb (the binary exponent), signbit (of -0.0 and NaN too), tgamma, and nan("").
Checked against numpy / math on float64 and float32 Views."""
import math

import numpy as np
import pykokkos as pk


@pk.workunit
def cmath_names(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double],
                out: pk.View2D[pk.double]):
    out[i][0] = fmax(a[i], b[i])
    out[i][1] = fmin(a[i], b[i])
    out[i][2] = nearbyint(a[i])
    out[i][3] = logb(b[i])
    out[i][4] = 1.0 if signbit(a[i]) else 0.0
    out[i][5] = tgamma(b[i])
    out[i][6] = nan("") if a[i] < -100.0 else a[i]


@pk.workunit
def cmath_names_f32(i: int, a: pk.View1D[pk.float], out: pk.View1D[pk.float]):
    out[i] = fmax(a[i], 0.5) + nearbyint(a[i]) + logb(a[i] + 10.0)


a = np.array([-1.5, 2.5, 0.5, -0.0, np.nan, -300.0, 3.0, 1e-3])
b = np.array([0.25, 3.0, 1.5, 4.0, 2.0, np.nan, 7.5, 0.5])
out = np.zeros((a.size, 7))
pk.parallel_for(a.size, cmath_names, a=a, b=b, out=out)
want = np.stack([np.fmax(a, b), np.fmin(a, b), np.rint(a),
                 np.array([math.frexp(x)[1] - 1.0 if np.isfinite(x) and x else np.nan for x in b]),
                 np.signbit(a).astype(float),
                 np.array([math.gamma(x) if np.isfinite(x) else np.nan for x in b]),
                 np.where(a < -100.0, np.nan, a)], axis=1)
bad = [] if np.allclose(out, want, rtol=1e-13, equal_nan=True) else [f"{out} != {want}"]
af = np.array([-1.5, 2.5, 0.25, 7.0], dtype=np.float32)
of = np.zeros(4, dtype=np.float32)
pk.parallel_for(4, cmath_names_f32, a=af, out=of)
wf = np.fmax(af, np.float32(0.5)) + np.rint(af) + np.floor(np.log2(af + np.float32(10.0)))
if not np.allclose(of, wf, rtol=1e-6):
    bad.append(f"float32 {of} != {wf}")
print("OK" if not bad else f"BAD {bad}")
