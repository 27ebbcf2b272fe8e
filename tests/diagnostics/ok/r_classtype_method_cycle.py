# Classtypes whose methods use each other (A.tob -> B, B.toa -> A): the
# methods of the first one emitted are defined after both structs.
import pykokkos as pk

@pk.classtype
class A:
    def __init__(self, x: float):
        self.x: float = x

    @pk.function
    def tob(self) -> "B":
        return B(self.x)

@pk.classtype
class B:
    def __init__(self, y: float):
        self.y: float = y

    @pk.function
    def toa(self) -> A:
        return A(self.y)

@pk.workunit
def k(i: int, v: pk.View1D[pk.double]):
    a = A(1.0)
    b: B = a.tob()
    c: A = b.toa()
    v[i] = c.x
