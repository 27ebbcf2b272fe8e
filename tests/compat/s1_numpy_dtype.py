"""Issue 7 s1: numpy arrays made by constructors with a dtype, passed straight
to unannotated workunits (as PyKokkos accepts numpy arrays for Views)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def square(i, src, dst):
    dst[i] = src[i] * src[i]


@pk.workunit
def total(i, acc, v):
    acc += v[i]


def main():
    n = 16
    src = np.arange(n, dtype=np.float32)
    dst = np.zeros(n, dtype=np.float32)
    ones = np.ones(n, dtype=np.int64)
    full = np.full((n,), 0.25, dtype=np.float64)
    pk.parallel_for(n, square, src=src, dst=dst)
    s1 = pk.parallel_reduce(n, total, v=ones)
    s2 = pk.parallel_reduce(n, total, v=full)

    want = np.arange(n, dtype=np.float32) ** 2
    if not np.array_equal(dst, want) or s1 != n or s2 != 0.25 * n:
        print(f"BAD dst={dst.tolist()} s1={s1!r} s2={s2!r}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
