# expect: 8:16: nested function 'red' takes 1 parameter but this pattern passes 2
import pykokkos as pk

@pk.workunit
def k(m: pk.TeamMember, v: pk.View1D[float], n: int):
    def red(j):
        v[j] = 0.0
    t: float = pk.parallel_reduce(pk.TeamThreadRange(m, n), red)
