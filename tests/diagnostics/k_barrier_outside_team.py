# expect: 6:5: 'm.team_barrier()' needs a pk.TeamMember
import pykokkos as pk

@pk.workunit
def k(i: int, m: float, v: pk.View1D[float]):
    m.team_barrier()
