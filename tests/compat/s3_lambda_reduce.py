"""Issue 7 s3: `pk.parallel_reduce(n, lambda i, acc: ...)` in host code,
capturing host locals (a View and a scalar)."""
import sys

import numpy as np
import pykokkos as pk


def main():
    n = 25
    x = pk.View([n], pk.double)
    for i in range(n):
        x[i] = 0.5 * i - 3.0
    w = 2.0
    total = pk.parallel_reduce(n, lambda i, acc: acc + w * x[i])
    positives = pk.parallel_reduce(pk.RangePolicy(0, n), lambda i, acc: acc + (1 if x[i] > 0 else 0))
    xs = 0.5 * np.arange(n) - 3.0
    if total != 2.0 * xs.sum() or positives != int((xs > 0).sum()):
        print(f"BAD total={total!r} (want {2.0 * xs.sum()}) positives={positives!r}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
