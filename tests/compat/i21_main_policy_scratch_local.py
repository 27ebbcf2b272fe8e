"""A team policy with its scratch size bound to a local in @pk.main
(`policy = pk.TeamPolicy(n, pk.AUTO).set_scratch_size(0, pk.PerTeam(b))`,
then `pk.parallel_for(policy, self.rows)`), as ExaMiniMD-style codes write
it: each team stages its row of A in team scratch and writes its sum."""
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class RowSums:
    def __init__(self, n: int, m: int, a: pk.View2D[pk.double]):
        self.n: int = n
        self.m: int = m
        self.A: pk.View2D[pk.double] = a
        self.out: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        size: int = pk.ScratchView1D.shmem_size(m)
        policy = pk.TeamPolicy(n, pk.AUTO).set_scratch_size(0, pk.PerTeam(size))
        pk.parallel_for("rows", policy, self.rows)

    @pk.workunit
    def rows(self, team: pk.TeamMember):
        r: int = team.league_rank()
        row: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), m)

        def load(k: int):
            row[k] = A[r][k]

        pk.parallel_for(pk.TeamThreadRange(team, m), load)
        team.team_barrier()
        if team.team_rank() == 0:
            s: float = 0.0
            for k in range(m):
                s += row[k] * (k + 1)
            out[r] = s


def main():
    n, m = 6, 9
    a = np.arange(n * m, dtype=np.float64).reshape(n, m) * 0.5
    w = RowSums(n, m, pk.from_numpy(a.copy()))
    pk.execute(pk.ExecutionSpace.Default, w)
    want = a @ np.arange(1, m + 1)
    if not np.allclose(np.asarray(w.out), want, rtol=1e-14, atol=0.0):
        print(f"BAD out={np.asarray(w.out).tolist()} want {want.tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
