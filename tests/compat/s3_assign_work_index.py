"""Issue 7 s3: assigning to the work index inside the body (it becomes a
local copy; other iterations are not affected)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def shift(i, src, dst, n):
    j = i
    i = i + 1
    if i == n:
        i = 0
    dst[j] = src[i]


@pk.workunit
def reverse_sum(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double], n: int):
    i = n - 1 - i
    acc += x[i] * i


def main():
    n = 8
    src = pk.View([n], pk.double)
    dst = pk.View([n], pk.double)
    for k in range(n):
        src[k] = 10.0 + k
    pk.parallel_for(n, shift, src=src, dst=dst, n=n)
    r = pk.parallel_reduce(n, reverse_sum, x=src, n=n)
    want = np.roll(10.0 + np.arange(n), -1)
    wr = float(((10.0 + np.arange(n)) * np.arange(n)).sum())
    if not np.array_equal(np.asarray(dst), want) or r != wr:
        print(f"BAD dst={np.asarray(dst).tolist()} r={r!r} (want {wr})")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
