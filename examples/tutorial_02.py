"""Kokkos tutorial exercise 02 (FunctionSty): y^T A x with Views.

    pkc build examples/tutorial_02.py
    python3 examples/tutorial_02.py [N [M [NREPEAT]]]   (default 4096 x 1024, 100 repeats)

Views y (N), x (M) and A (N x M) are filled by parallel_for kernels, then a
parallel_reduce over the rows computes y^T A x, NREPEAT times. The values are
multiples of 1/16 and small, so the sum is exact in float64: the result must
equal numpy's exactly (up to a tiny tolerance).
"""
# test-args: 64 48 3
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def init_y(i: int, y: pk.View1D[pk.double]):
    y[i] = 1.0 + (i % 7) * 0.5


@pk.workunit
def init_x(i: int, x: pk.View1D[pk.double]):
    x[i] = (i % 5) - 1.5


@pk.workunit
def init_A(i: int, M: int, A: pk.View2D[pk.double]):
    for j in range(M):
        A[i][j] = ((i + 2 * j) % 11) * 0.25


@pk.workunit
def yAx(j: int, acc: pk.Acc[pk.double], M: int, y: pk.View1D[pk.double],
        x: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    temp2: float = 0.0
    for i in range(M):
        temp2 += A[j][i] * x[i]
    acc += y[j] * temp2


def reference(N, M):
    i, j = np.arange(N), np.arange(M)
    y = 1.0 + (i % 7) * 0.5
    x = (j % 5) - 1.5
    A = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    return float(y @ A @ x), float(np.abs(y) @ np.abs(A) @ np.abs(x))


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    M = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    nrepeat = int(sys.argv[3]) if len(sys.argv) > 3 else 100

    y = pk.View([N], pk.double)
    x = pk.View([M], pk.double)
    A = pk.View([N, M], pk.double)
    pk.parallel_for(N, init_y, y=y)
    pk.parallel_for(M, init_x, x=x)
    pk.parallel_for(N, init_A, M=M, A=A)

    pk.fence()
    timer = pk.Timer()
    result = 0.0
    for _ in range(nrepeat):
        result = pk.parallel_reduce(N, yAx, M=M, y=y, x=x, A=A)
    pk.fence()
    seconds = timer.seconds()
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    print(f"tutorial_02: N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) problem( {mbytes:g} MB ) "
          f"time( {seconds:g} s ) bandwidth( {1e-3 * mbytes * nrepeat / seconds:g} GB/s )")

    expect, scale = reference(N, M)
    if abs(result - expect) > 1e-12 * max(scale, 1.0):
        print(f"tutorial_02: verification FAILED (y^T A x = {result!r}, expected {expect!r})")
        sys.exit(1)
    print(f"tutorial_02: verification PASSED (y^T A x = {result:.10g})")


if __name__ == "__main__":
    main()
