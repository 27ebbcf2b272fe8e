"""Atomic updates in a team kernel's thread-level code (a TeamThreadRange body,
or the team body outside any vector range) with a vector length above 1: on
GPUs Kokkos runs such code on every vector lane of a thread, so the histogram
counted each sample vector-length times (and vector-length squared after the
merge) and a slot claimed with atomic_fetch_add was claimed once per lane.
pkc makes each once per thread (Kokkos::single(PerThread), the fetched slot
broadcast to the lanes); on host backends it changes nothing."""
import numpy as np
import pykokkos as pk


@pk.workunit
def histogram(team: pk.TeamMember, n: int, chunk: int, nbins: int, x: pk.View1D[pk.double],
              hist: pk.View1D[pk.int64]):
    h: pk.ScratchView1D[pk.int64] = pk.ScratchView1D(team.team_scratch(0), nbins)
    start: int = team.league_rank() * chunk
    stop: int = min(start + chunk, n)

    def zero(b: int):
        h[b] = 0

    pk.parallel_for(pk.TeamThreadRange(team, nbins), zero)
    team.team_barrier()

    def bin_it(i: int):
        b: int = min(int(x[start + i] * nbins), nbins - 1)
        pk.atomic_add(h, [b], 1)

    pk.parallel_for(pk.TeamThreadRange(team, stop - start), bin_it)
    team.team_barrier()

    def merge(b: int):
        pk.atomic_add(hist, [b], h[b])

    pk.parallel_for(pk.TeamThreadRange(team, nbins), merge)


@pk.workunit
def claim(team: pk.TeamMember, n: int, x: pk.View1D[pk.double], count: pk.View1D[pk.int32],
          picked: pk.View1D[pk.double]):
    def one(j: int):
        i: int = team.league_rank() * team.team_size() + j
        if i < n and x[i] > 0.5:
            slot: pk.int32 = pk.atomic_fetch_add(count, [0], 1)
            picked[slot] = x[i]

    pk.parallel_for(pk.TeamThreadRange(team, team.team_size()), one)


n, nbins, chunk = 20000, 16, 500
x = np.random.default_rng(11).uniform(size=n)
bad = []
for vector in (1, 4, 8):
    hist = np.zeros(nbins, dtype=np.int64)
    policy = pk.TeamPolicy((n + chunk - 1) // chunk, pk.AUTO, vector).set_scratch_size(
        0, pk.PerTeam(pk.ScratchView1D.shmem_size(nbins)))
    pk.parallel_for(policy, histogram, n=n, chunk=chunk, nbins=nbins, x=x, hist=hist)
    want = np.bincount(np.minimum((x * nbins).astype(np.int64), nbins - 1), minlength=nbins)
    if not np.array_equal(hist, want):
        bad.append(f"histogram, vector length {vector}: {hist.sum()} counted for {n}")
    count = np.zeros(1, dtype=np.int32)
    picked = np.zeros(n)
    team_size = 32 if pk.get_default_space() in ("cuda", "hip") else 1
    pk.parallel_for(pk.TeamPolicy((n + team_size - 1) // team_size, team_size, vector), claim,
                    n=n, x=x, count=count, picked=picked)
    if count[0] != (x > 0.5).sum() or not np.array_equal(np.sort(picked[:count[0]]),
                                                         np.sort(x[x > 0.5])):
        bad.append(f"claimed slots, vector length {vector}: {count[0]} for {(x > 0.5).sum()}")
print("OK" if not bad else f"BAD {bad}")
