"""Every iteration of a TeamThreadRange adding into one element: a team
scratch accumulator `s[0] += x` and a View element `rowsum[r] += x` (r the
league rank). The iterations run on the team's threads (or vector lanes), so
the additions raced and sums came out short (957 to 2000 of 2000 rows wrong
with teams of two threads on a loaded OpenMP host; on GPUs always); pkc makes
such updates atomic (note team-atomic; tests/unit/test_team_sync.c checks the
rewrite, which a 2-core host rarely shows as numbers)."""
import os

import numpy as np
import pykokkos as pk


@pk.workunit
def scratch_sum(team: pk.TeamMember, n: int, a: pk.View2D[pk.double], out: pk.View1D[pk.double]):
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), 1)
    r: int = team.league_rank()

    def zero():
        s[0] = 0.0

    pk.single(pk.PerTeam(team), zero)
    team.team_barrier()

    def add(j: int):
        s[0] += a[r][j]

    pk.parallel_for(pk.TeamThreadRange(team, n), add)
    team.team_barrier()

    def store():
        out[r] = s[0]

    pk.single(pk.PerTeam(team), store)


@pk.workunit
def view_sum(team: pk.TeamMember, n: int, a: pk.View2D[pk.int64], rowsum: pk.View1D[pk.int64]):
    r: int = team.league_rank()

    def add(j: int):
        rowsum[r] += a[r][j]

    pk.parallel_for(pk.TeamThreadRange(team, n), add)


rows, n = 400, 1000
a = np.random.default_rng(4).integers(0, 10, size=(rows, n))
backend = os.environ.get("PKC_BACKEND", "openmp")
team = 2 if backend == "openmp" else pk.AUTO
bad = []
for _ in range(3):
    out = np.zeros(rows)
    policy = pk.TeamPolicy(rows, team).set_scratch_size(0, pk.PerTeam(8))
    pk.parallel_for(policy, scratch_sum, n=n, a=a.astype(np.float64), out=out)
    if not np.array_equal(out, a.sum(axis=1)):
        bad.append(f"scratch: {(out != a.sum(axis=1)).sum()} rows wrong")
    rowsum = np.zeros(rows, dtype=np.int64)
    pk.parallel_for(pk.TeamPolicy(rows, team), view_sum, n=n, a=a.astype(np.int64), rowsum=rowsum)
    if not np.array_equal(rowsum, a.sum(axis=1)):
        bad.append(f"view: {(rowsum != a.sum(axis=1)).sum()} rows wrong")
print("OK" if not bad else f"BAD {bad}")
