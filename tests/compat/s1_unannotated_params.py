"""Issue 7 s1: FunctionSty workunits with no annotations at all; the View and
scalar types come from the call sites (pk.View constructions, Python literals)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def axpy(i, y, x, a):
    y[i] = a * x[i] + y[i]


@pk.workunit
def offset(i, view, init):
    view[i] = init + 2 * i


@pk.workunit
def iota2d(i, m, cols):
    for j in range(cols):
        m[i][j] = i * cols + j


def main():
    n = 16
    x = pk.View([n], pk.double)
    y = pk.View([n], pk.double)
    for i in range(n):
        x[i] = i
        y[i] = 1.0
    pk.parallel_for(n, axpy, y=y, x=x, a=0.5)

    v = pk.View([n], pk.int32)
    pk.parallel_for(n, offset, view=v, init=5)

    rows, cols = 4, 3
    m = pk.View([rows, cols], pk.int32)
    pk.parallel_for(rows, iota2d, m=m, cols=cols)

    want_y = 0.5 * np.arange(n) + 1.0
    want_m = np.arange(rows * cols, dtype=np.int32).reshape(rows, cols)
    bad = []
    if not np.array_equal(np.asarray(y), want_y):
        bad.append(f"y={np.asarray(y).tolist()}")
    if np.asarray(v).tolist() != [5 + 2 * i for i in range(n)]:
        bad.append(f"v={np.asarray(v).tolist()}")
    if not np.array_equal(np.asarray(m), want_m):
        bad.append(f"m={np.asarray(m).tolist()}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
