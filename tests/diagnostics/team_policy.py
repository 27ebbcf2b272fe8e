# expect: 6:7: TeamPolicy workunits are not supported yet
import pykokkos as pk
import math

@pk.workunit
def k(team: pk.TeamMember, v: pk.View1D[float]):
    v[0] = 1.0
