"""Issue 7 s3: `pk.int` as a type name (parameters, locals, return types)."""
import sys

import numpy as np
import pykokkos as pk


@pk.function
def clamp(v: pk.int, lo: pk.int, hi: pk.int) -> pk.int:
    return min(max(v, lo), hi)


@pk.workunit
def clamp_all(i: pk.int, src: pk.View1D[pk.int32], dst: pk.View1D[pk.int32], lo: pk.int, hi: pk.int):
    v: pk.int = src[i]
    dst[i] = clamp(v, lo, hi)


def main():
    n = 10
    src = pk.View([n], pk.int32)
    dst = pk.View([n], pk.int32)
    for i in range(n):
        src[i] = 3 * i - 10
    pk.parallel_for(n, clamp_all, src=src, dst=dst, lo=-4, hi=8)
    want = np.clip(3 * np.arange(n) - 10, -4, 8).tolist()
    if np.asarray(dst).tolist() != want:
        print(f"BAD dst={np.asarray(dst).tolist()} want {want}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
