# expect: 16:28: a View of classtype 'Body' holds scalar fields only, but field 'self.pos' is Vec
import pykokkos as pk

@pk.classtype
class Vec:
    def __init__(self, x: float):
        self.x: float = x

@pk.classtype
class Body:
    def __init__(self, x: float):
        self.pos: Vec = Vec(x)
        self.m: float = 1.0

@pk.workunit
def k(i: int, b: pk.View1D[Body]):
    pass
