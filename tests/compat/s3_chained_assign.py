"""Issue 7 s3: chained assignment `a = b = v` for locals and View elements."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def chain(i, x, y, z):
    lo = hi = x[i] * 2.0
    lo -= 1.0
    hi += 1.0
    y[i] = z[i] = lo * hi


@pk.workunit
def count(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double]):
    a: float = 0.0
    b: float = 0.0
    a = b = x[i]
    acc += a + b


def main():
    n = 6
    x = pk.View([n], pk.double)
    y = pk.View([n], pk.double)
    z = pk.View([n], pk.double)
    for i in range(n):
        x[i] = i + 0.5
    pk.parallel_for(n, chain, x=x, y=y, z=z)
    r = pk.parallel_reduce(n, count, x=x)
    xs = np.arange(n) + 0.5
    want = (2 * xs - 1) * (2 * xs + 1)
    if (not np.array_equal(np.asarray(y), want) or not np.array_equal(np.asarray(z), want)
            or r != 2 * xs.sum()):
        print(f"BAD y={np.asarray(y).tolist()} z={np.asarray(z).tolist()} r={r!r}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
