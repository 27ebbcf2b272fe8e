# expect: 6:18: pk.parallel_reduce can only be used as a statement of a team workunit
import pykokkos as pk

@pk.workunit
def k(m: pk.TeamMember, v: pk.View1D[float], n: int):
    v[0] = 1.0 + pk.parallel_reduce(pk.TeamThreadRange(m, n), v)
