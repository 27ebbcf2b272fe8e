# expect: 12:9: uses team scratch level 0, but this dispatch sets no scratch size; use pk.TeamPolicy(...).set_scratch_size(0, pk.PerTeam(bytes))
import pykokkos as pk

@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.v: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(pk.TeamPolicy(self.n, pk.AUTO), self.k)

    @pk.workunit
    def k(self, m: pk.TeamMember):
        s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(m.team_scratch(0), 4)
        s[0] = 1.0
        self.v[m.league_rank()] = s[0]
