"""Kokkos tutorial exercise mdrange as a workload: MDRangePolicy initializes A.

    pkc build examples/tutorial_mdrange_workload.py
    python3 examples/tutorial_mdrange_workload.py [N [M [NREPEAT]]]  (default 4096 x 1024, 100 repeats)

A (N x M) is filled by a rank-2 MDRangePolicy kernel (one work item per
element, index pair (i, j)); y and x by range kernels. @pk.main then times
NREPEAT reductions of y^T A x, checked exactly against numpy.
"""
# test-args: 64 48 3
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class TutorialMDRange:
    def __init__(self, N: int, M: int, nrepeat: int):
        self.N: int = N
        self.M: int = M
        self.nrepeat: int = nrepeat
        self.result: float = 0.0
        self.seconds: float = 0.0
        self.y: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.x: pk.View1D[pk.double] = pk.View([M], pk.double)
        self.A: pk.View2D[pk.double] = pk.View([N, M], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(self.N, self.init_y)
        pk.parallel_for(self.M, self.init_x)
        pk.parallel_for(pk.MDRangePolicy([0, 0], [self.N, self.M]), self.init_A)
        pk.fence()
        timer = pk.Timer()
        for r in range(self.nrepeat):
            self.result = pk.parallel_reduce(self.N, self.yAx)
        pk.fence()
        self.seconds = timer.seconds()

    @pk.workunit
    def init_y(self, i: int):
        self.y[i] = 1.0 + (i % 7) * 0.5

    @pk.workunit
    def init_x(self, i: int):
        self.x[i] = (i % 5) - 1.5

    @pk.workunit
    def init_A(self, i: int, j: int):
        self.A[i][j] = ((i + 2 * j) % 11) * 0.25

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
    w = TutorialMDRange(N, M, nrepeat)
    pk.execute(pk.ExecutionSpace.Default, w)
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    print(f"tutorial_mdrange_workload: N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) problem( {mbytes:g} MB ) "
          f"time( {w.seconds:g} s ) bandwidth( {1e-3 * mbytes * nrepeat / max(w.seconds, 1e-12):g} GB/s )")

    i, j = np.arange(N), np.arange(M)
    y = 1.0 + (i % 7) * 0.5
    x = (j % 5) - 1.5
    A = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    if not np.array_equal(w.A.to_numpy(), A):
        print("tutorial_mdrange_workload: verification FAILED (A from the MDRangePolicy kernel differs)")
        sys.exit(1)
    expect = float(y @ A @ x)
    scale = max(float(np.abs(y) @ np.abs(A) @ np.abs(x)), 1.0)
    if abs(w.result - expect) > 1e-12 * scale:
        print(f"tutorial_mdrange_workload: verification FAILED (y^T A x = {w.result!r}, expected {expect!r})")
        sys.exit(1)
    print(f"tutorial_mdrange_workload: verification PASSED (y^T A x = {w.result:.10g})")


if __name__ == "__main__":
    main()
