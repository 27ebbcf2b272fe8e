"""Issue 7 s3: the subscripted ScratchView forms: `pk.ScratchView1D[float].shmem_size(n)`,
`pk.ScratchView2D[pk.double].shmem_size(a, b)`, `pk.ScratchView1D[float]`
annotations, and the constructor `pk.ScratchView1D(member.team_scratch(0), n)`
(also without an annotation on the local)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def reverse_rows(team: pk.TeamMember, A: pk.View2D[pk.double], out: pk.View2D[pk.double], m: int):
    r: int = team.league_rank()
    buf: pk.ScratchView1D[float] = pk.ScratchView1D(team.team_scratch(0), m)
    tmp = pk.ScratchView1D(team.team_scratch(0), m)

    def load(k: int):
        buf[k] = A[r][k]
        tmp[k] = 1.0

    pk.parallel_for(pk.TeamThreadRange(team, m), load)
    team.team_barrier()

    def store(k: int):
        out[r][k] = buf[m - 1 - k] * tmp[k]

    pk.parallel_for(pk.TeamThreadRange(team, m), store)


@pk.workunit
def tile_sum(team: pk.TeamMember, acc: pk.Acc[pk.double], A: pk.View2D[pk.double], m: int):
    r: int = team.league_rank()
    t: pk.ScratchView2D[pk.double] = pk.ScratchView2D(team.team_scratch(0), 2, m)

    def load(k: int):
        t[0][k] = A[r][k]
        t[1][k] = -0.5 * A[r][k]

    pk.parallel_for(pk.TeamThreadRange(team, m), load)
    team.team_barrier()
    if team.team_rank() == 0:
        for k in range(m):
            acc += t[0][k] + t[1][k]


def main():
    n, m = 4, 10
    A = pk.View([n, m], pk.double)
    out = pk.View([n, m], pk.double)
    for i in range(n):
        for j in range(m):
            A[i, j] = 10.0 * i + j
    size1 = pk.ScratchView1D[float].shmem_size(m)
    size2 = pk.ScratchView2D[pk.double].shmem_size(2, m)
    pk.parallel_for(pk.TeamPolicy(n, pk.AUTO).set_scratch_size(0, pk.PerTeam(2 * size1)),
                    reverse_rows, A=A, out=out, m=m)
    s = pk.parallel_reduce(pk.TeamPolicy(n, pk.AUTO).set_scratch_size(0, pk.PerTeam(size2)),
                           tile_sum, A=A, m=m)
    a = 10.0 * np.arange(n)[:, None] + np.arange(m)[None, :]
    if not np.array_equal(np.asarray(out), a[:, ::-1]) or s != 0.5 * a.sum():
        print(f"BAD out={np.asarray(out).tolist()} s={s!r} (want {0.5 * a.sum()})")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
