# A classtype method returning a classtype defined later in the file: the
# emitter must define P before Q (methods are defined inside the struct).
import pykokkos as pk

@pk.function
def use(p: "P") -> float:
    return p.x

@pk.classtype
class Q:
    def __init__(self, y: float):
        self.y: float = y

    @pk.function
    def mk(self) -> "P":
        return P(self.y)

@pk.classtype
class P:
    def __init__(self, x: float):
        self.x: float = x

@pk.workunit
def k(i: int, v: pk.View1D[pk.double]):
    q = Q(1.0)
    v[i] = use(q.mk())
