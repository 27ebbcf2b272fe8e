"""Issue 7 s4 (regression): a source file whose name is not an identifier
(`01.py`, as the PyKokkos tutorials are named): pkc and the shim must agree
on the module name."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def yAx(j: int, acc: pk.Acc[pk.double], cols: int, y: pk.View1D[pk.double],
        x: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    temp2: float = 0
    for i in range(cols):
        temp2 += A[j][i] * x[i]
    acc += y[j] * temp2


def main():
    N, M = 8, 6
    y = pk.View([N], pk.double)
    x = pk.View([M], pk.double)
    A = pk.View([N, M], pk.double)
    for i in range(N):
        y[i] = 1.0
    for i in range(M):
        x[i] = 1.0
    for j in range(N):
        for i in range(M):
            A[j][i] = 1.0
    result = pk.parallel_reduce(N, yAx, cols=M, y=y, x=x, A=A)
    if result != N * M:
        print(f"BAD result={result!r}, want {N * M}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
