"""Issue 7 s2: a float added into an int accumulator. With non-negative
summands `acc += v` on an integer acc is acc + floor(v), whatever the order."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def floor_sum(i, acc: pk.Acc[pk.int64], x):
    acc += x[i] * 0.5


def main():
    n = 25
    x = pk.View([n], pk.double)
    for i in range(n):
        x[i] = 1.3 * i
    r = pk.parallel_reduce(n, floor_sum, x=x)
    want = int(np.floor(1.3 * np.arange(n) * 0.5).sum())
    if r != want:
        print(f"BAD {r!r}, want {want}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
