# flags: --strict-types
# expect: 6:40: cannot infer the type of parameter 's' of 'k' from its call sites; annotate it (s: float)
import pykokkos as pk

@pk.workunit
def k(i: int, A: pk.View1D[pk.double], s):
    A[i] = s

def host():
    A = pk.View([10], pk.double)
    pk.parallel_for(10, k, A=A, s=1)
    pk.parallel_for(10, k, A=A, s=2.5)
