# expect: 7:12: name 'a' is not defined
# expect: 8:12: name 'b' is not defined
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = a + 1.0
    v[i] = b * 2.0
