# expect: 5:20: pk.MaxLoc reducers are not supported
import pykokkos as pk

@pk.workunit
def k(i: int, acc: pk.MaxLoc[pk.double], v: pk.View1D[float]):
    acc = v[i]
