"""TeamPolicy by keyword, as PyKokkos' own linalg code writes it
(`pk.TeamPolicy(league_size=..., team_size=...)`), in host code and in
@pk.main, with the one-argument set_scratch_size(bytes); row sums against
numpy."""
import numpy as np
import pykokkos as pk


@pk.workunit
def row_sums(team: pk.TeamMember, n: int, a: pk.View2D[pk.double], out: pk.View1D[pk.double]):
    r: int = team.league_rank()
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), n)

    def load(j: int):
        s[j] = a[r][j]

    pk.parallel_for(pk.TeamThreadRange(team, n), load)
    team.team_barrier()

    def add(j: int, acc: pk.Acc[pk.double]):
        acc += s[j]

    total: float = pk.parallel_reduce(pk.TeamThreadRange(team, n), add)
    out[r] = total


@pk.workload
class Scaled:
    def __init__(self, rows: int):
        self.rows: int = rows
        self.out: pk.View1D[pk.double] = pk.View([rows], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(pk.TeamPolicy(league_size=self.rows, team_size=pk.AUTO), self.fill)

    @pk.workunit
    def fill(self, m: pk.TeamMember):
        self.out[m.league_rank()] = 3.0 * m.league_rank()


rows, cols = 6, 9
host = np.random.default_rng(8).random((rows, cols))
a = pk.View([rows, cols], pk.double)
a[:] = host
out = pk.View([rows], pk.double)
policy = pk.TeamPolicy(league_size=rows, team_size=pk.AUTO)
policy.set_scratch_size(pk.ScratchView1D.shmem_size(cols))
pk.parallel_for(policy, row_sums, n=cols, a=a, out=out)
w = Scaled(rows)
pk.execute(pk.ExecutionSpace.Default, w)
ok = np.allclose(np.asarray(out), host.sum(axis=1)) and \
    np.array_equal(np.asarray(w.out), 3.0 * np.arange(rows))
print("OK" if ok else f"BAD {np.asarray(out)} {np.asarray(w.out)}")
