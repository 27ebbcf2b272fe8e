# expect: 11:12: classtype 'V' has no field 'w'
import pykokkos as pk

@pk.classtype
class V:
    def __init__(self, x: float):
        self.x: float = x

@pk.workunit
def k(i: int, A: pk.View1D[pk.double], v: V):
    A[i] = v.w
