"""Issue 7 s1: an unannotated team workunit (its first parameter is used as a
pk.TeamMember) with team scratch sized from Python, nested closures with
unannotated parameters, and an unannotated accumulator."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def row_sums(team, out, n):
    r = team.league_rank()
    tmp: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), n)

    def fill(k):
        tmp[k] = r + k

    pk.parallel_for(pk.TeamThreadRange(team, n), fill)
    team.team_barrier()

    def red(k, a):
        a += tmp[k]

    s = pk.parallel_reduce(pk.TeamThreadRange(team, n), red)
    if team.team_rank() == 0:
        out[r] = s


def main():
    league, n = 8, 5
    out = pk.View([league], pk.double)
    size = pk.ScratchView1D.shmem_size(n)
    pk.parallel_for(pk.TeamPolicy(league, pk.AUTO).set_scratch_size(0, pk.PerTeam(size)),
                    row_sums, out=out, n=n)
    want = n * np.arange(league) + n * (n - 1) / 2
    if not np.allclose(np.asarray(out), want):
        print(f"BAD {np.asarray(out).tolist()} want {want.tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
