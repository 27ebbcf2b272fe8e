"""Issue 7 s3: `ScratchView1D.shmem_size(...)` and `set_scratch_size` inside
@pk.main, dispatching a team workunit that uses team scratch (as in the
PyKokkos team_scratch_memory tutorial)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class RowSums:
    def __init__(self, n: int, m: int):
        self.n: int = n
        self.m: int = m
        self.A: pk.View2D[pk.double] = pk.View([n, m], pk.double)
        self.out: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.total: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        scratch_size: int = pk.ScratchView1D.shmem_size(self.m)
        pk.parallel_for("rows", pk.TeamPolicy(self.n, pk.AUTO).set_scratch_size(0, pk.PerTeam(scratch_size)),
                        self.rows)
        self.total = pk.parallel_reduce(
            "total", pk.TeamPolicy(self.n, "auto").set_scratch_size(0, pk.PerTeam(scratch_size)),
            self.row_total)

    @pk.workunit
    def init(self, i: int):
        for j in range(self.m):
            self.A[i][j] = i + 0.25 * j

    @pk.workunit
    def rows(self, team: pk.TeamMember):
        r: int = team.league_rank()
        row: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), self.m)

        def load(k: int):
            row[k] = self.A[r][k]

        pk.parallel_for(pk.TeamThreadRange(team, self.m), load)
        team.team_barrier()

        def add(k: int, acc: pk.Acc[pk.double]):
            acc += row[k]

        s: float = pk.parallel_reduce(pk.TeamThreadRange(team, self.m), add)

        def write():
            self.out[r] = s

        pk.single(pk.PerTeam(team), write)

    @pk.workunit
    def row_total(self, team: pk.TeamMember, acc: pk.Acc[pk.double]):
        r: int = team.league_rank()
        row: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), self.m)

        def load(k: int):
            row[k] = 2.0 * self.A[r][k]

        pk.parallel_for(pk.TeamThreadRange(team, self.m), load)
        team.team_barrier()
        if team.team_rank() == 0:
            for k in range(self.m):
                acc += row[k]


def main():
    n, m = 5, 16
    w = RowSums(n, m)
    pk.execute(pk.ExecutionSpace.Default, w)
    a = np.arange(n)[:, None] + 0.25 * np.arange(m)[None, :]
    if not np.allclose(np.asarray(w.out), a.sum(axis=1), rtol=1e-14) or abs(w.total - 2 * a.sum()) > 1e-9:
        print(f"BAD out={np.asarray(w.out).tolist()} total={w.total!r} (want {2 * a.sum()})")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
