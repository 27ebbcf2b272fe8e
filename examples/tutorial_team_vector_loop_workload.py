"""Kokkos tutorial exercise team_vector_loop as a workload: three-level parallelism.

    pkc build examples/tutorial_team_vector_loop_workload.py
    python3 examples/tutorial_team_vector_loop_workload.py [E [N [M [NREPEAT]]]]
                                                 (default 16 x 1024 x 1024, 10 repeats)

sum over e of y[e]^T A[e] x[e]: @pk.main launches TeamPolicy(E, AUTO, V):
teams over e, TeamThreadRange over rows j, ThreadVectorRange over columns i,
pk.single(PerTeam) to add each team's sum. The data are filled by a
MDRangePolicy kernel (A) and a range kernel (y, x). Checked exactly against numpy.
"""
# test-args: 4 16 24 2
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class TutorialTeamVectorLoop:
    def __init__(self, E: int, N: int, M: int, V: int, nrepeat: int):
        self.E: int = E
        self.N: int = N
        self.M: int = M
        self.V: int = V
        self.nrepeat: int = nrepeat
        self.result: float = 0.0
        self.seconds: float = 0.0
        self.y: pk.View2D[pk.double] = pk.View([E, N], pk.double)
        self.x: pk.View2D[pk.double] = pk.View([E, M], pk.double)
        self.A: pk.View3D[pk.double] = pk.View([E, N, M], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(pk.MDRangePolicy([0, 0, 0], [self.E, self.N, self.M]), self.init_A)
        pk.parallel_for(self.E, self.init_yx)
        pk.fence()
        timer = pk.Timer()
        for r in range(self.nrepeat):
            self.result = pk.parallel_reduce(pk.TeamPolicy(self.E, pk.AUTO, self.V), self.yAx)
        pk.fence()
        self.seconds = timer.seconds()

    @pk.workunit
    def init_A(self, e: int, j: int, i: int):
        self.A[e][j][i] = ((e + j + 2 * i) % 11) * 0.25

    @pk.workunit
    def init_yx(self, e: int):
        for j in range(self.N):
            self.y[e][j] = 1.0 + ((e + j) % 7) * 0.5
        for i in range(self.M):
            self.x[e][i] = ((e + i) % 5) - 1.5

    @pk.workunit
    def yAx(self, m: pk.TeamMember, acc: pk.Acc[pk.double]):
        e: int = m.league_rank()

        def team_reduce(j: int, team_acc: pk.Acc[pk.double]):
            def vector_reduce(i: int, vector_acc: pk.Acc[pk.double]):
                vector_acc += self.A[e][j][i] * self.x[e][i]

            tempM: float = pk.parallel_reduce(pk.ThreadVectorRange(m, self.M), vector_reduce)
            team_acc += self.y[e][j] * tempM

        tempN: float = pk.parallel_reduce(pk.TeamThreadRange(m, self.N), team_reduce)

        def single():
            nonlocal acc
            acc += tempN

        pk.single(pk.PerTeam(m), single)


def vector_length(M):
    """The largest power of two <= min(M, 32) (a GPU warp at most)."""
    v = 1
    while v * 2 <= min(M, 32):
        v *= 2
    return v


def main():
    E = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    N = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    M = int(sys.argv[3]) if len(sys.argv) > 3 else 1024
    nrepeat = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    w = TutorialTeamVectorLoop(E, N, M, vector_length(M), nrepeat)
    pk.execute(pk.ExecutionSpace.Default, w)
    mbytes = 1e-6 * 8.0 * E * (N * M + N + M)
    print(f"tutorial_team_vector_loop_workload: E( {E} ) N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) "
          f"problem( {mbytes:g} MB ) time( {w.seconds:g} s ) "
          f"bandwidth( {1e-3 * mbytes * nrepeat / max(w.seconds, 1e-12):g} GB/s )")

    e = np.arange(E)[:, None]
    jj, ii = np.arange(N)[None, :], np.arange(M)[None, :]
    y_np = 1.0 + ((e + jj) % 7) * 0.5
    x_np = ((e + ii) % 5) - 1.5
    A_np = ((e[:, :, None] + jj[:, :, None] + 2 * ii[:, None, :]) % 11) * 0.25
    expect = float(np.einsum("ej,eji,ei->", y_np, A_np, x_np))
    scale = max(float(np.einsum("ej,eji,ei->", np.abs(y_np), A_np, np.abs(x_np))), 1.0)
    if abs(w.result - expect) > 1e-12 * scale:
        print(f"tutorial_team_vector_loop_workload: verification FAILED (sum y^T A x = {w.result!r}, "
              f"expected {expect!r})")
        sys.exit(1)
    print(f"tutorial_team_vector_loop_workload: verification PASSED "
          f"(sum over e of y^T A x = {w.result:.10g})")


if __name__ == "__main__":
    main()
