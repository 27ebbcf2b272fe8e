# expect: 10:47: 'helper' is not a nested function
import pykokkos as pk

@pk.function
def helper(j: int) -> int:
    return j

@pk.workunit
def k(m: pk.TeamMember, n: int):
    pk.parallel_for(pk.TeamThreadRange(m, n), helper)
