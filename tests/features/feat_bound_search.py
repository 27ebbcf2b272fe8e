"""pk.lower_bound / pk.upper_bound(view, n, value) (PyKokkos' binary search
over the first n sorted elements): the first index whose element is >= value
(upper: > value), else n. In RangePolicy kernels over int32, float32 and
float64 Views (unannotated parameters too, as PyKokkos' own tests write
them), and in a team kernel over a team scratch copy. Against numpy's
searchsorted (side="left" / "right")."""
import os

import numpy as np
import pykokkos as pk


@pk.workunit
def fill_even(i, view):
    view[i] = (i + 1) * 2


@pk.workunit
def lower_int(i, view, n: int, out):
    out[i] = pk.lower_bound(view, n, i * 2)


@pk.workunit
def upper_int(i: int, view: pk.View1D[pk.int32], n: int, out: pk.View1D[pk.int32]):
    out[i] = pk.upper_bound(view, n, i * 2)


@pk.workunit
def search_float(i: int, view: pk.View1D[pk.float], n: int, lo: pk.View1D[pk.int64],
                 hi: pk.View1D[pk.int64]):
    x: float = 0.5 * i
    lo[i] = pk.lower_bound(view, n, x)
    hi[i] = pk.upper_bound(view, n, x)


@pk.workunit
def search_double(i: int, view: pk.View1D[pk.double], n: int, lo: pk.View1D[pk.int64]):
    lo[i] = pk.lower_bound(view, n, 0.25 * i - 1.0)


@pk.workunit
def team_search(team: pk.TeamMember, view: pk.View1D[pk.double], out: pk.View1D[pk.int32]):
    size: int = team.team_size()
    g: int = team.league_rank() * size + team.team_rank()
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), size)
    s[team.team_rank()] = view[g]
    team.team_barrier()
    out[g] = pk.lower_bound(s, size, 1.0 * team.team_rank())


checks = []
n, m = 10, 24
v = pk.View([m], pk.int32)
pk.parallel_for(m, fill_even, view=v)
sorted_int = (np.arange(m) + 1) * 2
out = pk.View([m], pk.int32)
pk.parallel_for(m, lower_int, view=v, n=n, out=out)
checks.append(("lower int", np.asarray(out).tolist(),
               np.searchsorted(sorted_int[:n], np.arange(m) * 2, side="left").tolist()))
pk.parallel_for(m, upper_int, view=v, n=n, out=out)
checks.append(("upper int", np.asarray(out).tolist(),
               np.searchsorted(sorted_int[:n], np.arange(m) * 2, side="right").tolist()))

keys = np.array([0.0, 1.0, 1.0, 2.5, 4.0, 4.0, 4.0, 7.5], np.float32)
f = pk.View([keys.size], pk.float)
f[:] = keys
lo = pk.View([20], pk.int64)
hi = pk.View([20], pk.int64)
pk.parallel_for(20, search_float, view=f, n=keys.size, lo=lo, hi=hi)
xs = (0.5 * np.arange(20)).astype(np.float32)
checks.append(("lower float32", np.asarray(lo).tolist(),
               np.searchsorted(keys, xs, side="left").tolist()))
checks.append(("upper float32", np.asarray(hi).tolist(),
               np.searchsorted(keys, xs, side="right").tolist()))

d = np.sort(np.random.default_rng(4).normal(size=50))
dv = pk.View([d.size], pk.double)
dv[:] = d
pk.parallel_for(20, search_double, view=dv, n=d.size, lo=lo)
checks.append(("lower float64", np.asarray(lo).tolist(),
               np.searchsorted(d, 0.25 * np.arange(20) - 1.0, side="left").tolist()))

size = {"serial": 1, "openmp": 2}.get(os.environ.get("PKC_BACKEND", "openmp"), 32)
league = 6
vals = np.sort(np.random.default_rng(5).uniform(0, size, (league, size)), axis=1)
tv = pk.View([league * size], pk.double)
tv[:] = vals.ravel()
tout = pk.View([league * size], pk.int32)
policy = pk.TeamPolicy(league, size)
policy.set_scratch_size(0, pk.PerTeam(pk.ScratchView1D[pk.double].shmem_size(size)))
pk.parallel_for(policy, team_search, view=tv, out=tout)
want = [np.searchsorted(vals[t], float(r), side="left") for t in range(league) for r in range(size)]
checks.append(("team scratch", np.asarray(tout).tolist(), want))

bad = [c[0] for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
