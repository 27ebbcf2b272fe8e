"""A scatter convolution over teams: team r adds w[k] * x[r] into
out[r + k] for k over a TeamThreadRange, as a team-per-input convolution is
often first written. Team r's element r + 1 is team r + 1's element r + 1,
and teams run at once, so the updates raced between teams (on an H200,
built by pkc before the rule: 20030 of the 20032 elements wrong, every
run); pkc makes them atomic (note team-atomic; tests/unit/test_team_sync.c
checks the rewrite, which a 2-core host rarely shows as numbers). The result must be numpy's
convolution exactly (small integers in doubles), with the pk.atomic_add
spelling beside it."""
import os

import numpy as np
import pykokkos as pk


@pk.workunit
def scatter(team: pk.TeamMember, K: int, x: pk.View1D[pk.double], w: pk.View1D[pk.double],
            out: pk.View1D[pk.double]):
    r: int = team.league_rank()

    def add(k: int):
        out[r + k] += w[k] * x[r]

    pk.parallel_for(pk.TeamThreadRange(team, K), add)


@pk.workunit
def scatter_atomic(team: pk.TeamMember, K: int, x: pk.View1D[pk.double],
                   w: pk.View1D[pk.double], out: pk.View1D[pk.double]):
    r: int = team.league_rank()

    def add(k: int):
        pk.atomic_add(out, [r + k], w[k] * x[r])

    pk.parallel_for(pk.TeamThreadRange(team, K), add)


n, K = 20000, 33
rng = np.random.default_rng(20)
xs = rng.integers(0, 5, n).astype(np.float64)
ws = rng.integers(0, 5, K).astype(np.float64)
want = np.convolve(xs, ws)
backend = os.environ.get("PKC_BACKEND", "openmp")
team = 2 if backend == "openmp" else pk.AUTO
bad = []
for wu in (scatter, scatter_atomic):
    for _ in range(3):
        out = np.zeros(n + K - 1)
        pk.parallel_for(pk.TeamPolicy(n, team), wu, K=K, x=xs, w=ws, out=out)
        if not np.array_equal(out, want):
            bad.append(f"{wu.__name__}: {(out != want).sum()} elements wrong")
print("OK" if not bad else f"BAD {bad}")
