# expect: 16:12: wrong number of arguments to 'scaled': expected 1, got 2
import pykokkos as pk

@pk.classtype
class V:
    def __init__(self, x: float):
        self.x: float = x

    @pk.function
    def scaled(self, s: float) -> float:
        return self.x * s

@pk.workunit
def k(i: int, A: pk.View1D[pk.double]):
    v = V(1.0)
    A[i] = v.scaled(1.0, 2.0)
