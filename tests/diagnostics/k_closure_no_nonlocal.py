# expect: 8:9: cannot assign the outer variable 'total'; declare it with 'nonlocal total'
import pykokkos as pk

@pk.workunit
def k(m: pk.TeamMember, v: pk.View1D[float]):
    total: float = 0.0
    def one():
        total = 1.0
    pk.single(pk.PerTeam(m), one)
    v[0] = total
