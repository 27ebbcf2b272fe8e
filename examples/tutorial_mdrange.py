"""Kokkos tutorial exercise mdrange (FunctionSty): MDRangePolicy initializes A.

    pkc build examples/tutorial_mdrange.py
    python3 examples/tutorial_mdrange.py [N [M [NREPEAT]]]   (default 4096 x 1024, 100 repeats)

A (N x M) is filled by a rank-2 MDRangePolicy kernel (work index pair
(i, j), Iterate.Right), y and x by range kernels; then NREPEAT reductions
of y^T A x are timed. A and the result are checked exactly against numpy.
"""
# test-args: 64 48 3
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def init_A(i: int, j: int, A: pk.View2D[pk.double]):
    A[i][j] = ((i + 2 * j) % 11) * 0.25


@pk.workunit
def init_y(i: int, y: pk.View1D[pk.double]):
    y[i] = 1.0 + (i % 7) * 0.5


@pk.workunit
def init_x(i: int, x: pk.View1D[pk.double]):
    x[i] = (i % 5) - 1.5


@pk.workunit
def yAx(j: int, acc: pk.Acc[pk.double], M: int, y: pk.View1D[pk.double],
        x: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    temp2: float = 0.0
    for i in range(M):
        temp2 += A[j][i] * x[i]
    acc += y[j] * temp2


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    M = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    nrepeat = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    y = pk.View([N], pk.double)
    x = pk.View([M], pk.double)
    A = pk.View([N, M], pk.double)
    pk.parallel_for(pk.MDRangePolicy([0, 0], [N, M], iterate=pk.Iterate.Right), init_A, A=A)
    pk.parallel_for(N, init_y, y=y)
    pk.parallel_for(M, init_x, x=x)
    pk.fence()
    timer = pk.Timer()
    result = 0.0
    for _ in range(nrepeat):
        result = pk.parallel_reduce(N, yAx, M=M, y=y, x=x, A=A)
    pk.fence()
    seconds = timer.seconds()
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    print(f"tutorial_mdrange: N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) problem( {mbytes:g} MB ) "
          f"time( {seconds:g} s ) bandwidth( {1e-3 * mbytes * nrepeat / max(seconds, 1e-12):g} GB/s )")

    i, j = np.arange(N), np.arange(M)
    y_np = 1.0 + (i % 7) * 0.5
    x_np = (j % 5) - 1.5
    A_np = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    if not np.array_equal(A.to_numpy(), A_np):
        print("tutorial_mdrange: verification FAILED (A from the MDRangePolicy kernel differs)")
        sys.exit(1)
    expect = float(y_np @ A_np @ x_np)
    scale = max(float(np.abs(y_np) @ np.abs(A_np) @ np.abs(x_np)), 1.0)
    if abs(result - expect) > 1e-12 * scale:
        print(f"tutorial_mdrange: verification FAILED (y^T A x = {result!r}, expected {expect!r})")
        sys.exit(1)
    print(f"tutorial_mdrange: verification PASSED (y^T A x = {result:.10g})")


if __name__ == "__main__":
    main()
