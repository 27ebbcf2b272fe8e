"""pk.inclusive_scan(team_member, view) (PyKokkos, upstream's
examples/kokkos/inclusive_scan_team.py): the team replaces the elements of a
scratch View, each thread's slot filled before, by their inclusive prefix
sums; per-team prefix sums against numpy, int and float, and a team scratch
longer than the team."""
import numpy as np
import pykokkos as pk


@pk.workunit(scratch=[(int, lambda p: p.width)])
def team_prefix(team: pk.TeamMember, data: pk.View1D[pk.int32], width: int):
    s: pk.ScratchView1D[pk.int32] = pk.ScratchView1D(team.team_scratch(0), width)
    base: int = team.league_rank() * width

    def load(j: int):
        s[j] = data[base + j]

    pk.parallel_for(pk.TeamThreadRange(team, width), load)
    pk.inclusive_scan(team, s)

    def store(j: int):
        data[base + j] = s[j]

    pk.parallel_for(pk.TeamThreadRange(team, width), store)


@pk.workunit
def team_prefix_f(team: pk.TeamMember, x: pk.View2D[pk.double], width: int):
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), width)
    r: int = team.league_rank()

    def load(j: int):
        s[j] = x[r][j]

    pk.parallel_for(pk.TeamThreadRange(team, width), load)
    pk.inclusive_scan(team, s)

    def store(j: int):
        x[r][j] = s[j]

    pk.parallel_for(pk.TeamThreadRange(team, width), store)


teams, width = 9, 100
d = np.random.default_rng(1).integers(-5, 6, size=teams * width).astype(np.int32)
want = np.cumsum(d.reshape(teams, width), axis=1).ravel()
pk.parallel_for(pk.TeamPolicy(teams, pk.AUTO), team_prefix, data=d, width=width)
bad = [] if np.array_equal(d, want) else [f"int {d[:8]} != {want[:8]}"]
x = np.random.default_rng(2).uniform(size=(teams, width))
wx = np.cumsum(x, axis=1)
pol = pk.TeamPolicy(teams, pk.AUTO).set_scratch_size(0, pk.PerTeam(pk.ScratchView1D.shmem_size(width)))
pk.parallel_for(pol, team_prefix_f, x=x, width=width)
if not np.allclose(x, wx, rtol=1e-13):
    bad.append("float")
print("OK" if not bad else f"BAD {bad}")
