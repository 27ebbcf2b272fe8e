"""The install test's kernel, y += a * x. Run as a program (with the
installed shim), it runs the module pkc_add_module built, checks it against
numpy and prints OK, the shim's path and the libpkcrt it loaded."""
import numpy as np
import pykokkos as pk


@pk.workunit
def axpy(i: int, y: pk.View1D[pk.double], x: pk.View1D[pk.double], a: float):
    y[i] += a * x[i]


if __name__ == "__main__":
    n = 1000
    x = 0.5 * np.arange(n, dtype=np.float64)
    y = 2.0 - np.arange(n, dtype=np.float64)
    want = y + 3.0 * x
    pk.parallel_for(pk.RangePolicy(0, n), axpy, y=y, x=x, a=3.0)
    assert np.array_equal(y, want), f"axpy: y differs from numpy: {y[:4]} vs {want[:4]}"
    with open("/proc/self/maps") as f:
        runtime = sorted({w for w in f.read().split() if w.endswith("/libpkcrt.so")})
    print("OK", pk.__file__, *runtime)
