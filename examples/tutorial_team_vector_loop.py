"""Kokkos tutorial exercise team_vector_loop (FunctionSty, the dissertation's Figure 2.1).

    pkc build examples/tutorial_team_vector_loop.py
    python3 examples/tutorial_team_vector_loop.py [E [N [M [NREPEAT]]]]
                                                 (default 16 x 1024 x 1024, 10 repeats)

As in the figure, the Views hold Python ints (int32 elements) and the
accumulators are pk.Acc[int] (int64): sum over e of y[e]^T A[e] x[e] with
teams over e (TeamPolicy(pk.Default, E, pk.AUTO, V)), TeamThreadRange over
rows j, ThreadVectorRange over columns i, pk.single(PerTeam) to add each
team's sum. Integer arithmetic: the result must equal numpy's exactly.
"""
# test-args: 4 16 24 2
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def init(m: pk.TeamMember, N: int, M: int, y: pk.View2D[int], x: pk.View2D[int],
         A: pk.View3D[int]):
    e: int = m.league_rank()

    def init_row(j: int):
        y[e][j] = 1 + (e + j) % 7

        def init_elem(i: int):
            A[e][j][i] = (e + j + 2 * i) % 11

        pk.parallel_for(pk.ThreadVectorRange(m, M), init_elem)

    pk.parallel_for(pk.TeamThreadRange(m, N), init_row)

    def init_x(i: int):
        x[e][i] = (e + i) % 5 - 2

    pk.parallel_for(pk.TeamThreadRange(m, M), init_x)


@pk.workunit
def yAx(m: pk.TeamMember, acc: pk.Acc[int], N: int, M: int, y: pk.View2D[int],
        x: pk.View2D[int], A: pk.View3D[int]):
    e: int = m.league_rank()

    def team_reduce(j: int, team_acc: pk.Acc[int]):
        def vector_reduce(i: int, vector_acc: pk.Acc[int]):
            vector_acc += A[e][j][i] * x[e][i]

        tempM: int = pk.parallel_reduce(pk.ThreadVectorRange(m, M), vector_reduce)
        team_acc += y[e][j] * tempM

    tempN: int = pk.parallel_reduce(pk.TeamThreadRange(m, N), team_reduce)

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

    y = pk.View([E, N], dtype=int)
    x = pk.View([E, M], dtype=int)
    A = pk.View([E, N, M], dtype=int)
    policy = pk.TeamPolicy(pk.Default, E, pk.AUTO, vector_length(M))
    pk.parallel_for(policy, init, N=N, M=M, y=y, x=x, A=A)
    pk.fence()
    timer = pk.Timer()
    result = 0
    for _ in range(nrepeat):
        result = pk.parallel_reduce(policy, yAx, N=N, M=M, y=y, x=x, A=A)
    pk.fence()
    seconds = timer.seconds()
    mbytes = 1e-6 * 4.0 * E * (N * M + N + M)
    print(f"tutorial_team_vector_loop: E( {E} ) N( {N} ) M( {M} ) nrepeat ( {nrepeat} ) "
          f"problem( {mbytes:g} MB ) time( {seconds:g} s ) "
          f"bandwidth( {1e-3 * mbytes * nrepeat / max(seconds, 1e-12):g} GB/s )")

    e = np.arange(E, dtype=np.int64)[:, None]
    jj, ii = np.arange(N, dtype=np.int64)[None, :], np.arange(M, dtype=np.int64)[None, :]
    y_np = 1 + (e + jj) % 7
    x_np = (e + ii) % 5 - 2
    A_np = (e[:, :, None] + jj[:, :, None] + 2 * ii[:, None, :]) % 11
    expect = int(np.einsum("ej,eji,ei->", y_np, A_np, x_np))
    if not np.array_equal(A.to_numpy(), A_np) or int(result) != expect:
        print(f"tutorial_team_vector_loop: verification FAILED (sum y^T A x = {result!r}, "
              f"expected {expect!r})")
        sys.exit(1)
    print(f"tutorial_team_vector_loop: verification PASSED (sum over e of y^T A x = {int(result)})")


if __name__ == "__main__":
    main()
