"""Kokkos tutorial exercise team_policy as a workload: two-level parallel y^T A x.

    pkc build examples/tutorial_team_policy_workload.py
    python3 examples/tutorial_team_policy_workload.py [N [M [NREPEAT]]]  (default 4096 x 1024, 100 repeats)

@pk.main launches TeamPolicy(N, AUTO): one team per row j, a nested
parallel_reduce over TeamThreadRange(m, M) for row j . x, and pk.single per
team to add y[j] * row to the accumulator. The result must equal numpy's
exact y^T A x.
"""
# test-args: 64 48 3
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class TutorialTeamPolicy:
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
        pk.parallel_for(self.N, self.init_rows)
        pk.parallel_for(self.M, self.init_x)
        pk.fence()
        timer = pk.Timer()
        for r in range(self.nrepeat):
            self.result = pk.parallel_reduce(pk.TeamPolicy(self.N, pk.AUTO), self.yAx)
        pk.fence()
        self.seconds = timer.seconds()

    @pk.workunit
    def init_rows(self, i: int):
        self.y[i] = 1.0 + (i % 7) * 0.5
        for j in range(self.M):
            self.A[i][j] = ((i + 2 * j) % 11) * 0.25

    @pk.workunit
    def init_x(self, i: int):
        self.x[i] = (i % 5) - 1.5

    @pk.workunit
    def yAx(self, m: pk.TeamMember, acc: pk.Acc[pk.double]):
        j: int = m.league_rank()

        def inner(i: int, inner_acc: pk.Acc[pk.double]):
            inner_acc += self.A[j][i] * self.x[i]

        temp2: float = pk.parallel_reduce(pk.TeamThreadRange(m, self.M), inner)

        def add_row():
            nonlocal acc
            acc += self.y[j] * temp2

        pk.single(pk.PerTeam(m), add_row)


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    M = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    nrepeat = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    w = TutorialTeamPolicy(N, M, nrepeat)
    pk.execute(pk.ExecutionSpace.Default, w)
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    print(f"tutorial_team_policy_workload: N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) problem( {mbytes:g} MB ) "
          f"time( {w.seconds:g} s ) bandwidth( {1e-3 * mbytes * nrepeat / max(w.seconds, 1e-12):g} GB/s )")

    i, j = np.arange(N), np.arange(M)
    y = 1.0 + (i % 7) * 0.5
    x = (j % 5) - 1.5
    A = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    expect = float(y @ A @ x)
    scale = max(float(np.abs(y) @ np.abs(A) @ np.abs(x)), 1.0)
    if abs(w.result - expect) > 1e-12 * scale:
        print(f"tutorial_team_policy_workload: verification FAILED (y^T A x = {w.result!r}, "
              f"expected {expect!r})")
        sys.exit(1)
    print(f"tutorial_team_policy_workload: verification PASSED (y^T A x = {w.result:.10g})")


if __name__ == "__main__":
    main()
