# expect: 6:21: pk.TeamThreadRange is only allowed inside a team workunit
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    pk.parallel_for(pk.TeamThreadRange(i, 10), f)
