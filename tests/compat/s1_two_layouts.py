"""Issue 7 s1: the run-time signature covers the layout: one unannotated
workunit called with a LayoutRight and a LayoutLeft 2D View."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def fill(i, a, cols):
    for j in range(cols):
        a[i][j] = 10 * i + j


@pk.workunit
def colsum(j, acc, a, rows):
    for i in range(rows):
        acc += a[i][j] * (j + 1)


def main():
    rows, cols = 5, 3
    right = pk.View([rows, cols], pk.double, layout=pk.Layout.LayoutRight)
    left = pk.View([rows, cols], pk.double, layout=pk.Layout.LayoutLeft)
    pk.parallel_for(rows, fill, a=right, cols=cols)
    pk.parallel_for(rows, fill, a=left, cols=cols)
    sr = pk.parallel_reduce(cols, colsum, a=right, rows=rows)
    sl = pk.parallel_reduce(cols, colsum, a=left, rows=rows)

    want = 10.0 * np.arange(rows)[:, None] + np.arange(cols)[None, :]
    wsum = float((want * (np.arange(cols) + 1)[None, :]).sum())
    bad = []
    for name, v, s in (("right", right, sr), ("left", left, sl)):
        got = np.array([[v[i, j] for j in range(cols)] for i in range(rows)])
        if not np.array_equal(got, want) or s != wsum:
            bad.append(f"{name}: {got.tolist()} sum {s!r} (want {wsum})")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
