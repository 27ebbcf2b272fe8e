# expect: 6:18: 'i.league_rank()' needs a pk.TeamMember
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = float(i.league_rank())
