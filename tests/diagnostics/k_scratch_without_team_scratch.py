# expect: 6:55: must be m.team_scratch(level) or m.thread_scratch(level)
import pykokkos as pk

@pk.workunit
def k(m: pk.TeamMember, n: int):
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(n, n)
