# expect: 6:40: duplicate parameter 'v'
# expect-only
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[pk.double], v: pk.View1D[pk.int32]):
    v[i] = 1.0
