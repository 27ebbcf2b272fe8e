"""Kokkos tutorial exercise team_vector_loop (ClassSty, the papers' Figure 1).

    pkc build examples/tutorial_team_vector_loop_functor.py
    python3 examples/tutorial_team_vector_loop_functor.py [E [N [M [NREPEAT]]]]
                                                 (default 16 x 1024 x 1024, 10 repeats)

A batch of E problems: sum over e of y[e]^T A[e] x[e], with three levels of
parallelism: one team per e (TeamPolicy(E, AUTO, V)), the team's threads
over the rows j (TeamThreadRange), each thread's vector lanes over the
columns i (ThreadVectorRange), and pk.single(PerTeam) adding the team's sum
to the kernel's accumulator. The result must equal numpy's exact value.
"""
# test-args: 4 16 24 2
import sys

import numpy as np
import pykokkos as pk


@pk.functor
class TeamVectorLoop:
    def __init__(self, N: int, M: int, y: pk.View2D[pk.double], x: pk.View2D[pk.double],
                 A: pk.View3D[pk.double]):
        self.N: int = N
        self.M: int = M
        self.y: pk.View2D[pk.double] = y
        self.x: pk.View2D[pk.double] = x
        self.A: pk.View3D[pk.double] = A

    @pk.workunit
    def init(self, m: pk.TeamMember):
        e: int = m.league_rank()

        def init_row(j: int):
            self.y[e][j] = 1.0 + ((e + j) % 7) * 0.5

            def init_elem(i: int):
                self.A[e][j][i] = ((e + j + 2 * i) % 11) * 0.25

            pk.parallel_for(pk.ThreadVectorRange(m, self.M), init_elem)

        pk.parallel_for(pk.TeamThreadRange(m, self.N), init_row)

        def init_x(i: int):
            self.x[e][i] = ((e + i) % 5) - 1.5

        pk.parallel_for(pk.TeamThreadRange(m, self.M), init_x)

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

    y = pk.View([E, N], pk.double)
    x = pk.View([E, M], pk.double)
    A = pk.View([E, N, M], pk.double)
    t = TeamVectorLoop(N, M, y, x, A)
    policy = pk.TeamPolicy(E, pk.AUTO, vector_length(M))
    pk.parallel_for(policy, t.init)
    pk.fence()

    timer = pk.Timer()
    result = 0.0
    for _ in range(nrepeat):
        result = pk.parallel_reduce(policy, t.yAx)
    pk.fence()
    seconds = timer.seconds()
    mbytes = 1e-6 * 8.0 * E * (N * M + N + M)
    print(f"tutorial_team_vector_loop_functor: E( {E} ) N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) "
          f"problem( {mbytes:g} MB ) time( {seconds:g} s ) "
          f"bandwidth( {1e-3 * mbytes * nrepeat / max(seconds, 1e-12):g} GB/s )")

    e = np.arange(E)[:, None]
    jj, ii = np.arange(N)[None, :], np.arange(M)[None, :]
    y_np = 1.0 + ((e + jj) % 7) * 0.5
    x_np = ((e + ii) % 5) - 1.5
    A_np = ((e[:, :, None] + jj[:, :, None] + 2 * ii[:, None, :]) % 11) * 0.25
    expect = float(np.einsum("ej,eji,ei->", y_np, A_np, x_np))
    scale = max(float(np.einsum("ej,eji,ei->", np.abs(y_np), A_np, np.abs(x_np))), 1.0)
    if abs(result - expect) > 1e-12 * scale:
        print(f"tutorial_team_vector_loop_functor: verification FAILED (sum y^T A x = {result!r}, "
              f"expected {expect!r})")
        sys.exit(1)
    print(f"tutorial_team_vector_loop_functor: verification PASSED (sum over e of y^T A x = {result:.10g})")


if __name__ == "__main__":
    main()
