"""Histograms in team scratch, written as PyKokkos users write them: each
team counts its share of keys into a ScratchView with `h[k] += 1` (and sums
weights with `w[k] += x`) inside a TeamThreadRange closure. Two threads of a
team may meet on one bin; pkc makes those updates atomic (note
"team-atomic"), without which GPUs lose counts. Counts exactly, sums to
rounding, against numpy."""
import os

import numpy as np
import pykokkos as pk

NBINS = 16


@pk.workunit
def team_histogram(team: pk.TeamMember, per: int, keys: pk.View1D[pk.int32],
                   weights: pk.View1D[pk.double], counts: pk.View2D[pk.int32],
                   sums: pk.View2D[pk.double]):
    t: int = team.league_rank()
    h: pk.ScratchView1D[pk.int32] = pk.ScratchView1D(team.team_scratch(0), NBINS)
    w: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), NBINS)

    def clear(b: int):
        h[b] = 0
        w[b] = 0.0

    pk.parallel_for(pk.TeamThreadRange(team, NBINS), clear)
    team.team_barrier()

    def count(j: int):
        k: int = keys[t * per + j]
        h[k] += 1
        w[k] += weights[t * per + j]

    pk.parallel_for(pk.TeamThreadRange(team, per), count)
    team.team_barrier()

    def store(b: int):
        counts[t][b] = h[b]
        sums[t][b] = w[b]

    pk.parallel_for(pk.TeamThreadRange(team, NBINS), store)


backend = os.environ.get("PKC_BACKEND", "openmp")
size = {"serial": 1, "openmp": 2}.get(backend, 128)
league, per = 12, 5000
rng = np.random.default_rng(7)
host_keys = rng.integers(0, NBINS, league * per).astype(np.int32)
host_weights = rng.random(league * per)
keys = pk.View([league * per], pk.int32)
keys[:] = host_keys
weights = pk.View([league * per], pk.double)
weights[:] = host_weights
scratch = pk.ScratchView1D.shmem_size(NBINS) * 2
policy = pk.TeamPolicy(league, size).set_scratch_size(0, pk.PerTeam(scratch))
want_counts = np.array([np.bincount(host_keys[t * per:(t + 1) * per], minlength=NBINS)
                        for t in range(league)])
want_sums = np.array([np.bincount(host_keys[t * per:(t + 1) * per],
                                  weights=host_weights[t * per:(t + 1) * per], minlength=NBINS)
                      for t in range(league)])
bad = []
for _ in range(10):   # races show up now and then, not every run
    counts = pk.View([league, NBINS], pk.int32)
    sums = pk.View([league, NBINS], pk.double)
    pk.parallel_for(policy, team_histogram, per=per, keys=keys, weights=weights,
                    counts=counts, sums=sums)
    if not np.array_equal(np.asarray(counts), want_counts):
        bad.append("counts")
    if not np.allclose(np.asarray(sums), want_sums, rtol=1e-12):
        bad.append("sums")
print("OK" if not bad else f"BAD {sorted(set(bad))}")
