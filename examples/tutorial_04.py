"""Kokkos tutorial exercise 04 (FunctionSty): layouts and RangePolicy with a space.

    pkc build examples/tutorial_04.py
    python3 examples/tutorial_04.py [N [M [NREPEAT]]]   (default 4096 x 1024, 100 repeats)

The same matrix is stored in LayoutRight (row-major) and LayoutLeft
(column-major); each kernel declares its A's layout with
@pk.workunit(A=pk.ViewTypeInfo(layout=...)), and every launch names the
execution space in its RangePolicy. Both reductions are timed and must
equal numpy's exact y^T A x.
"""
# test-args: 64 48 3
import sys

import numpy as np
import pykokkos as pk


@pk.workunit(A=pk.ViewTypeInfo(layout=pk.LayoutRight))
def init_right(i: int, M: int, A: pk.View2D[pk.double]):
    for j in range(M):
        A[i][j] = ((i + 2 * j) % 11) * 0.25


@pk.workunit(A=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def init_left(i: int, M: int, A: pk.View2D[pk.double]):
    for j in range(M):
        A[i][j] = ((i + 2 * j) % 11) * 0.25


@pk.workunit
def init_vectors(i: int, N: int, M: int, y: pk.View1D[pk.double], x: pk.View1D[pk.double]):
    if i < N:
        y[i] = 1.0 + (i % 7) * 0.5
    if i < M:
        x[i] = (i % 5) - 1.5


@pk.workunit(A=pk.ViewTypeInfo(layout=pk.LayoutRight))
def yAx_right(j: int, acc: pk.Acc[pk.double], M: int, y: pk.View1D[pk.double],
              x: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    temp2: float = 0.0
    for i in range(M):
        temp2 += A[j][i] * x[i]
    acc += y[j] * temp2


@pk.workunit(A=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def yAx_left(j: int, acc: pk.Acc[pk.double], M: int, y: pk.View1D[pk.double],
             x: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    temp2: float = 0.0
    for i in range(M):
        temp2 += A[j][i] * x[i]
    acc += y[j] * temp2


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    M = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    nrepeat = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    space = pk.ExecutionSpace.Default
    y = pk.View([N], pk.double)
    x = pk.View([M], pk.double)
    A_right = pk.View([N, M], pk.double, layout=pk.LayoutRight)
    A_left = pk.View([N, M], pk.double, layout=pk.LayoutLeft)
    rows = pk.RangePolicy(space, 0, N)
    pk.parallel_for(pk.RangePolicy(space, 0, max(N, M)), init_vectors, N=N, M=M, y=y, x=x)
    pk.parallel_for(rows, init_right, M=M, A=A_right)
    pk.parallel_for(rows, init_left, M=M, A=A_left)

    results, secs = {}, {}
    for name, kernel, A in (("LayoutRight", yAx_right, A_right), ("LayoutLeft", yAx_left, A_left)):
        pk.fence()
        timer = pk.Timer()
        for _ in range(nrepeat):
            results[name] = pk.parallel_reduce(rows, kernel, M=M, y=y, x=x, A=A)
        pk.fence()
        secs[name] = timer.seconds()
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    for name, s in secs.items():
        print(f"tutorial_04: {name}: N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) problem( {mbytes:g} MB ) "
              f"time( {s:g} s ) bandwidth( {1e-3 * mbytes * nrepeat / max(s, 1e-12):g} GB/s )")

    i, j = np.arange(N), np.arange(M)
    y_np = 1.0 + (i % 7) * 0.5
    x_np = (j % 5) - 1.5
    A_np = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    if not (np.array_equal(A_right.to_numpy(), A_np) and np.array_equal(A_left.to_numpy(), A_np)):
        print("tutorial_04: verification FAILED (A_right or A_left differs from numpy)")
        sys.exit(1)
    expect = float(y_np @ A_np @ x_np)
    scale = max(float(np.abs(y_np) @ np.abs(A_np) @ np.abs(x_np)), 1.0)
    for name, got in results.items():
        if abs(got - expect) > 1e-12 * scale:
            print(f"tutorial_04: verification FAILED ({name}: y^T A x = {got!r}, expected {expect!r})")
            sys.exit(1)
    print(f"tutorial_04: verification PASSED (y^T A x = {expect:.10g} with both layouts)")


if __name__ == "__main__":
    main()
