"""Kokkos tutorial exercise 03 (FunctionSty): device Views, host mirrors, deep_copy.

    pkc build examples/tutorial_03.py
    python3 examples/tutorial_03.py [N [M [NREPEAT]]]   (default 4096 x 1024, 100 repeats)

y, x and A live in the default space's memory (device memory on a GPU
backend). They are filled on the host in HostSpace mirrors and copied over
with pk.deep_copy; NREPEAT reductions of y^T A x are timed; A is copied
back into a fresh host mirror to check the round trip.
"""
# test-args: 64 48 3
import sys

import numpy as np
import pykokkos as pk


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
    i, j = np.arange(N), np.arange(M)
    y_np = 1.0 + (i % 7) * 0.5
    x_np = (j % 5) - 1.5
    A_np = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25

    y = pk.View([N], pk.double)
    x = pk.View([M], pk.double)
    A = pk.View([N, M], pk.double)
    h_y = pk.View([N], pk.double, space=pk.HostSpace)
    h_x = pk.View([M], pk.double, space=pk.HostSpace)
    h_A = pk.View([N, M], pk.double, space=pk.HostSpace)
    np.asarray(h_y)[:] = y_np
    np.asarray(h_x)[:] = x_np
    np.asarray(h_A)[:] = A_np
    pk.deep_copy(y, h_y)
    pk.deep_copy(x, h_x)
    pk.deep_copy(A, h_A)

    timer = pk.Timer()
    result = 0.0
    for _ in range(nrepeat):
        result = pk.parallel_reduce(N, yAx, M=M, y=y, x=x, A=A)
    pk.fence()
    seconds = timer.seconds()
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    print(f"tutorial_03: N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) problem( {mbytes:g} MB ) "
          f"time( {seconds:g} s ) bandwidth( {1e-3 * mbytes * nrepeat / max(seconds, 1e-12):g} GB/s )")

    back = pk.View([N, M], pk.double, space=pk.HostSpace)
    pk.deep_copy(back, A)
    if not np.array_equal(np.asarray(back), A_np):
        print("tutorial_03: verification FAILED (A copied back differs from the host data)")
        sys.exit(1)
    expect = float(y_np @ A_np @ x_np)
    scale = max(float(np.abs(y_np) @ np.abs(A_np) @ np.abs(x_np)), 1.0)
    if abs(result - expect) > 1e-12 * scale:
        print(f"tutorial_03: verification FAILED (y^T A x = {result!r}, expected {expect!r})")
        sys.exit(1)
    print(f"tutorial_03: verification PASSED (y^T A x = {result:.10g})")


if __name__ == "__main__":
    main()
