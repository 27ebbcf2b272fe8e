"""Issue 7 s2: a float stored into an int View element (int32 and int64
Views, both signs: C++ truncates toward zero)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def quantize(i, x, q32, q64):
    q32[i] = x[i] * 1.5
    q64[i] = x[i] / 0.25


def main():
    n = 10
    x = pk.View([n], pk.double)
    for i in range(n):
        x[i] = 0.3 * i - 1.4
    q32 = pk.View([n], pk.int32)
    q64 = pk.View([n], pk.int64)
    pk.parallel_for(n, quantize, x=x, q32=q32, q64=q64)

    xs = 0.3 * np.arange(n) - 1.4
    w32 = np.trunc(xs * 1.5).astype(np.int64).tolist()
    w64 = np.trunc(xs / 0.25).astype(np.int64).tolist()
    if np.asarray(q32).tolist() != w32 or np.asarray(q64).tolist() != w64:
        print(f"BAD q32={np.asarray(q32).tolist()} (want {w32}) "
              f"q64={np.asarray(q64).tolist()} (want {w64})")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
