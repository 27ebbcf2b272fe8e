"""Kokkos tutorial exercise 02 as a workload (ClassStyWithMain, as in the papers).

    pkc build examples/tutorial_02_workload.py
    python3 examples/tutorial_02_workload.py [N [M [NREPEAT]]]  (default 4096 x 1024, 100 repeats)

The @pk.main method is translated whole to C++: it fills y, x and A with
parallel_for, then times NREPEAT parallel_reduce calls of y^T A x. pk.execute
runs it; the result and the time come back as scalar members. The values are
exact in float64, so the result must match numpy's.
"""
# test-args: 64 48 3
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Tutorial02:
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
        pk.parallel_for(self.N, self.init_A)
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
    def init_A(self, i: int):
        for j in range(self.M):
            self.A[i][j] = ((i + 2 * j) % 11) * 0.25

    @pk.workunit
    def yAx(self, j: int, acc: pk.Acc[pk.double]):
        temp2: float = 0.0
        for i in range(self.M):
            temp2 += self.A[j][i] * self.x[i]
        acc += self.y[j] * temp2


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
    w = Tutorial02(N, M, nrepeat)
    pk.execute(pk.ExecutionSpace.Default, w)
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    print(f"tutorial_02_workload: N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) problem( {mbytes:g} MB ) "
          f"time( {w.seconds:g} s ) bandwidth( {1e-3 * mbytes * nrepeat / max(w.seconds, 1e-12):g} GB/s )")

    expect, scale = reference(N, M)
    if abs(w.result - expect) > 1e-12 * max(scale, 1.0):
        print(f"tutorial_02_workload: verification FAILED (y^T A x = {w.result!r}, expected {expect!r})")
        sys.exit(1)
    print(f"tutorial_02_workload: verification PASSED (y^T A x = {w.result:.10g})")


if __name__ == "__main__":
    main()
