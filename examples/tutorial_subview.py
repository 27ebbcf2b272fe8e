"""Kokkos tutorial exercise subview (FunctionSty): row subviews inside the kernel.

    pkc build examples/tutorial_subview.py
    python3 examples/tutorial_subview.py [N [M [NREPEAT]]]   (default 4096 x 1024, 100 repeats)

Each work item takes row j of A as a 1-D View, with
pk.subview(A, j, slice(None)) in the timed kernel and with slicing A[j, :]
in a second one (and in the initialization, which writes through it). Both
results must equal numpy's exact y^T A x.
"""
# test-args: 64 48 3
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def init_rows(i: int, M: int, y: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    y[i] = 1.0 + (i % 7) * 0.5
    row = A[i, :]
    for j in range(M):
        row[j] = ((i + 2 * j) % 11) * 0.25


@pk.workunit
def init_x(i: int, x: pk.View1D[pk.double]):
    x[i] = (i % 5) - 1.5


@pk.workunit
def yAx_subview(j: int, acc: pk.Acc[pk.double], M: int, y: pk.View1D[pk.double],
                x: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    A_row = pk.subview(A, j, slice(None))
    temp2: float = 0.0
    for i in range(M):
        temp2 += A_row[i] * x[i]
    acc += y[j] * temp2


@pk.workunit
def yAx_slice(j: int, acc: pk.Acc[pk.double], y: pk.View1D[pk.double],
              x: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    A_row = A[j, :]
    temp2: float = 0.0
    for i in range(len(A_row)):
        temp2 += A_row[i] * x[i]
    acc += y[j] * temp2


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    M = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    nrepeat = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    y = pk.View([N], pk.double)
    x = pk.View([M], pk.double)
    A = pk.View([N, M], pk.double)
    pk.parallel_for(N, init_rows, M=M, y=y, A=A)
    pk.parallel_for(M, init_x, x=x)
    pk.fence()
    timer = pk.Timer()
    result = 0.0
    for _ in range(nrepeat):
        result = pk.parallel_reduce(N, yAx_subview, M=M, y=y, x=x, A=A)
    pk.fence()
    seconds = timer.seconds()
    result_slice = pk.parallel_reduce(N, yAx_slice, y=y, x=x, A=A)
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    print(f"tutorial_subview: N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) problem( {mbytes:g} MB ) "
          f"time( {seconds:g} s ) bandwidth( {1e-3 * mbytes * nrepeat / max(seconds, 1e-12):g} GB/s )")

    i, j = np.arange(N), np.arange(M)
    y_np = 1.0 + (i % 7) * 0.5
    x_np = (j % 5) - 1.5
    A_np = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    if not np.array_equal(A.to_numpy(), A_np):
        print("tutorial_subview: verification FAILED (A written through row subviews differs)")
        sys.exit(1)
    expect = float(y_np @ A_np @ x_np)
    scale = max(float(np.abs(y_np) @ np.abs(A_np) @ np.abs(x_np)), 1.0)
    for name, got in (("pk.subview", result), ("A[j, :]", result_slice)):
        if abs(got - expect) > 1e-12 * scale:
            print(f"tutorial_subview: verification FAILED ({name}: y^T A x = {got!r}, expected {expect!r})")
            sys.exit(1)
    print(f"tutorial_subview: verification PASSED (y^T A x = {expect:.10g} through pk.subview and slicing)")


if __name__ == "__main__":
    main()
