"""Kokkos tutorial exercise subview as a workload: row subviews inside the kernel.

    pkc build examples/tutorial_subview_workload.py
    python3 examples/tutorial_subview_workload.py [N [M [NREPEAT]]]  (default 4096 x 1024, 100 repeats)

Each work item takes its row of A as a 1-D View, once with
pk.subview(A, j, slice(None)) (Kokkos::subview(A, j, Kokkos::ALL)) and once
with slicing A[j, :], and reads the row through it. Both reductions are
timed and must equal numpy's exact y^T A x.
"""
# test-args: 64 48 3
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class TutorialSubview:
    def __init__(self, N: int, M: int, nrepeat: int):
        self.N: int = N
        self.M: int = M
        self.nrepeat: int = nrepeat
        self.result_subview: float = 0.0
        self.result_slice: float = 0.0
        self.seconds: float = 0.0
        self.y: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.x: pk.View1D[pk.double] = pk.View([M], pk.double)
        self.A: pk.View2D[pk.double] = pk.View([N, M], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(self.N, self.init_rows)
        pk.parallel_for(self.M, self.init_x)
        pk.fence()
        timer = pk.Timer()
        for r in range(self.nrepeat):
            self.result_subview = pk.parallel_reduce(self.N, self.yAx_subview)
        pk.fence()
        self.seconds = timer.seconds()
        self.result_slice = pk.parallel_reduce(self.N, self.yAx_slice)

    @pk.workunit
    def init_rows(self, i: int):
        self.y[i] = 1.0 + (i % 7) * 0.5
        row = self.A[i, :]
        for j in range(self.M):
            row[j] = ((i + 2 * j) % 11) * 0.25

    @pk.workunit
    def init_x(self, i: int):
        self.x[i] = (i % 5) - 1.5

    @pk.workunit
    def yAx_subview(self, j: int, acc: pk.Acc[pk.double]):
        A_row = pk.subview(self.A, j, slice(None))
        temp2: float = 0.0
        for i in range(self.M):
            temp2 += A_row[i] * self.x[i]
        acc += self.y[j] * temp2

    @pk.workunit
    def yAx_slice(self, j: int, acc: pk.Acc[pk.double]):
        A_row = self.A[j, :]
        temp2: float = 0.0
        for i in range(A_row.extent(0)):
            temp2 += A_row[i] * self.x[i]
        acc += self.y[j] * temp2


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    M = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    nrepeat = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    w = TutorialSubview(N, M, nrepeat)
    pk.execute(pk.ExecutionSpace.Default, w)
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    print(f"tutorial_subview_workload: N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) problem( {mbytes:g} MB ) "
          f"time( {w.seconds:g} s ) bandwidth( {1e-3 * mbytes * nrepeat / max(w.seconds, 1e-12):g} GB/s )")

    i, j = np.arange(N), np.arange(M)
    y = 1.0 + (i % 7) * 0.5
    x = (j % 5) - 1.5
    A = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    if not np.array_equal(w.A.to_numpy(), A):
        print("tutorial_subview_workload: verification FAILED (A written through row subviews differs)")
        sys.exit(1)
    expect = float(y @ A @ x)
    scale = max(float(np.abs(y) @ np.abs(A) @ np.abs(x)), 1.0)
    for name, got in (("pk.subview", w.result_subview), ("A[j, :]", w.result_slice)):
        if abs(got - expect) > 1e-12 * scale:
            print(f"tutorial_subview_workload: verification FAILED ({name}: y^T A x = {got!r}, "
                  f"expected {expect!r})")
            sys.exit(1)
    print(f"tutorial_subview_workload: verification PASSED (y^T A x = {expect:.10g} "
          f"through pk.subview and slicing)")


if __name__ == "__main__":
    main()
