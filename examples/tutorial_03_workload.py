"""Kokkos tutorial exercise 03 as a workload: device Views, host mirrors, deep_copy.

    pkc build examples/tutorial_03_workload.py
    python3 examples/tutorial_03_workload.py [N [M [NREPEAT]]]  (default 4096 x 1024, 100 repeats)

y, x and A live in the default execution space's memory (device memory on
a GPU backend). They are filled on the host, in HostSpace mirrors, and
copied over with pk.deep_copy; @pk.main then times NREPEAT reductions of
y^T A x. A is copied back to a fresh host mirror to check the round trip.
"""
# test-args: 64 48 3
import sys

import numpy as np
import pykokkos as pk


def host_data(N, M):
    i, j = np.arange(N), np.arange(M)
    y = 1.0 + (i % 7) * 0.5
    x = (j % 5) - 1.5
    A = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    return y, x, A


@pk.workload
class Tutorial03:
    def __init__(self, N: int, M: int, nrepeat: int):
        self.N: int = N
        self.M: int = M
        self.nrepeat: int = nrepeat
        self.result: float = 0.0
        self.seconds: float = 0.0
        self.y: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.x: pk.View1D[pk.double] = pk.View([M], pk.double)
        self.A: pk.View2D[pk.double] = pk.View([N, M], pk.double)

        # Host mirrors: filled in Python, then deep-copied to the device Views.
        h_y = pk.View([N], pk.double, space=pk.HostSpace)
        h_x = pk.View([M], pk.double, space=pk.HostSpace)
        h_A = pk.View([N, M], pk.double, space=pk.HostSpace)
        y, x, A = host_data(N, M)
        np.asarray(h_y)[:] = y
        np.asarray(h_x)[:] = x
        np.asarray(h_A)[:] = A
        pk.deep_copy(self.y, h_y)
        pk.deep_copy(self.x, h_x)
        pk.deep_copy(self.A, h_A)

    @pk.main
    def run(self):
        timer = pk.Timer()
        for r in range(self.nrepeat):
            self.result = pk.parallel_reduce(self.N, self.yAx)
        pk.fence()
        self.seconds = timer.seconds()

    @pk.workunit
    def yAx(self, j: int, acc: pk.Acc[pk.double]):
        temp2: float = 0.0
        for i in range(self.M):
            temp2 += self.A[j][i] * self.x[i]
        acc += self.y[j] * temp2


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    M = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    nrepeat = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    w = Tutorial03(N, M, nrepeat)
    pk.execute(pk.ExecutionSpace.Default, w)
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    print(f"tutorial_03_workload: N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) problem( {mbytes:g} MB ) "
          f"time( {w.seconds:g} s ) bandwidth( {1e-3 * mbytes * nrepeat / max(w.seconds, 1e-12):g} GB/s )")

    y, x, A = host_data(N, M)
    back = pk.View([N, M], pk.double, space=pk.HostSpace)
    pk.deep_copy(back, w.A)
    if not np.array_equal(np.asarray(back), A):
        print("tutorial_03_workload: verification FAILED (A copied back differs from the host data)")
        sys.exit(1)
    expect = float(y @ A @ x)
    scale = float(np.abs(y) @ np.abs(A) @ np.abs(x))
    if abs(w.result - expect) > 1e-12 * max(scale, 1.0):
        print(f"tutorial_03_workload: verification FAILED (y^T A x = {w.result!r}, expected {expect!r})")
        sys.exit(1)
    print(f"tutorial_03_workload: verification PASSED (y^T A x = {w.result:.10g})")


if __name__ == "__main__":
    main()
