# expect: 35:28: a View of classtype 'L1' nests classtypes at most 4 deep, but field 'self.inner' of nested classtype 'L4' is L5 one level deeper; flatten the innermost classtype's fields into 'L4'
import pykokkos as pk

@pk.classtype
class L5:
    def __init__(self, x: float):
        self.x: float = x

@pk.classtype
class L4:
    def __init__(self, x: float):
        self.inner: L5 = L5(x)

@pk.classtype
class L3:
    def __init__(self, x: float):
        self.inner: L4 = L4(x)

@pk.classtype
class L2:
    def __init__(self, x: float):
        self.inner: L3 = L3(x)

@pk.classtype
class L1:
    def __init__(self, x: float):
        self.inner: L2 = L2(x)
        self.m: float = 1.0

@pk.workunit
def ok4(i: int, b: pk.View1D[L2]):
    b[i].inner.inner.inner.x += 1.0

@pk.workunit
def k(i: int, b: pk.View1D[L1]):
    pass
