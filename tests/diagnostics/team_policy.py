# expect: 7:5: 'i.league_rank()' needs a pk.TeamMember
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    i.league_rank()
    v[0] = 1.0
