"""Issue 7 s1: MDRange workunits with unannotated indices and Views."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def fill(i, j, a, scale):
    a[i][j] = scale * (i * 10 + j)


@pk.workunit
def transpose_add(i, j, dst, src):
    dst[j][i] += src[i][j]


def main():
    n, m = 4, 7
    a = pk.View([n, m], pk.double)
    t = pk.View([m, n], pk.double)
    pk.parallel_for(pk.MDRangePolicy([0, 0], [n, m]), fill, a=a, scale=0.5)
    pk.parallel_for(pk.MDRangePolicy([0, 0], [n, m]), transpose_add, dst=t, src=a)
    want = 0.5 * (10 * np.arange(n)[:, None] + np.arange(m)[None, :])
    if not np.array_equal(np.asarray(a), want) or not np.array_equal(np.asarray(t), want.T):
        print(f"BAD a={np.asarray(a).tolist()} t={np.asarray(t).tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
