"""Kokkos tutorial exercise 04 as a workload: layouts and RangePolicy with a space.

    pkc build examples/tutorial_04_workload.py
    python3 examples/tutorial_04_workload.py [N [M [NREPEAT]]]  (default 4096 x 1024, 100 repeats)

The same matrix is stored twice: A_right in LayoutRight (row-major, the
host's best layout for this row-wise kernel) and A_left in LayoutLeft
(column-major, the GPU's coalesced layout), chosen per member with
pk.ViewTypeInfo in the decorator. Every launch names its execution space in
a RangePolicy. Both reductions are timed and must equal numpy's exact result.
"""
# test-args: 64 48 3
import sys

import numpy as np
import pykokkos as pk


@pk.workload(A_left=pk.ViewTypeInfo(layout=pk.LayoutLeft),
             A_right=pk.ViewTypeInfo(layout=pk.LayoutRight))
class Tutorial04:
    def __init__(self, N: int, M: int, nrepeat: int):
        self.N: int = N
        self.M: int = M
        self.nrepeat: int = nrepeat
        self.result_right: float = 0.0
        self.result_left: float = 0.0
        self.seconds_right: float = 0.0
        self.seconds_left: float = 0.0
        self.y: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.x: pk.View1D[pk.double] = pk.View([M], pk.double)
        self.A_right: pk.View2D[pk.double] = pk.View([N, M], pk.double, layout=pk.LayoutRight)
        self.A_left: pk.View2D[pk.double] = pk.View([N, M], pk.double, layout=pk.LayoutLeft)

    @pk.main
    def run(self):
        pk.parallel_for(pk.RangePolicy(pk.ExecutionSpace.Default, 0, self.N), self.init_rows)
        pk.parallel_for(pk.RangePolicy(pk.ExecutionSpace.Default, 0, self.M), self.init_x)
        pk.fence()
        timer = pk.Timer()
        for r in range(self.nrepeat):
            self.result_right = pk.parallel_reduce(
                pk.RangePolicy(pk.ExecutionSpace.Default, 0, self.N), self.yAx_right)
        pk.fence()
        self.seconds_right = timer.seconds()
        timer.reset()
        for r in range(self.nrepeat):
            self.result_left = pk.parallel_reduce(
                pk.RangePolicy(pk.ExecutionSpace.Default, 0, self.N), self.yAx_left)
        pk.fence()
        self.seconds_left = timer.seconds()

    @pk.workunit
    def init_rows(self, i: int):
        self.y[i] = 1.0 + (i % 7) * 0.5
        for j in range(self.M):
            a: float = ((i + 2 * j) % 11) * 0.25
            self.A_right[i][j] = a
            self.A_left[i][j] = a

    @pk.workunit
    def init_x(self, i: int):
        self.x[i] = (i % 5) - 1.5

    @pk.workunit
    def yAx_right(self, j: int, acc: pk.Acc[pk.double]):
        temp2: float = 0.0
        for i in range(self.M):
            temp2 += self.A_right[j][i] * self.x[i]
        acc += self.y[j] * temp2

    @pk.workunit
    def yAx_left(self, j: int, acc: pk.Acc[pk.double]):
        temp2: float = 0.0
        for i in range(self.M):
            temp2 += self.A_left[j][i] * self.x[i]
        acc += self.y[j] * temp2


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    M = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    nrepeat = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    w = Tutorial04(N, M, nrepeat)
    pk.execute(pk.ExecutionSpace.Default, w)
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    for name, secs in (("LayoutRight", w.seconds_right), ("LayoutLeft", w.seconds_left)):
        print(f"tutorial_04_workload: {name}: N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) "
              f"problem( {mbytes:g} MB ) time( {secs:g} s ) "
              f"bandwidth( {1e-3 * mbytes * nrepeat / max(secs, 1e-12):g} GB/s )")

    i, j = np.arange(N), np.arange(M)
    y = 1.0 + (i % 7) * 0.5
    x = (j % 5) - 1.5
    A = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    expect = float(y @ A @ x)
    scale = max(float(np.abs(y) @ np.abs(A) @ np.abs(x)), 1.0)
    if not (np.array_equal(w.A_left.to_numpy(), A) and np.array_equal(w.A_right.to_numpy(), A)):
        print("tutorial_04_workload: verification FAILED (A_left or A_right differs from numpy)")
        sys.exit(1)
    for name, got in (("LayoutRight", w.result_right), ("LayoutLeft", w.result_left)):
        if abs(got - expect) > 1e-12 * scale:
            print(f"tutorial_04_workload: verification FAILED ({name}: y^T A x = {got!r}, "
                  f"expected {expect!r})")
            sys.exit(1)
    print(f"tutorial_04_workload: verification PASSED (y^T A x = {expect:.10g} with both layouts)")


if __name__ == "__main__":
    main()
