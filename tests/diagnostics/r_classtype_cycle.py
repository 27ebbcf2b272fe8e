# expect: 9:14: field 'self.b' makes classtype 'A' contain itself
# expect: 15:14: field 'self.a' makes classtype 'B' contain itself
import pykokkos as pk

@pk.classtype
class A:
    def __init__(self, x: float, b: "B"):
        self.x: float = x
        self.b: B = b

@pk.classtype
class B:
    def __init__(self, y: float, a: A):
        self.y: float = y
        self.a: A = a

@pk.workunit
def k(i: int, v: pk.View1D[pk.double]):
    v[i] = 1.0
