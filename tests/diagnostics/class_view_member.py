# expect: 12:14: data member 'self.p' is a View of classtype 'P', which only a FunctionSty @pk.workunit can take for now
import pykokkos as pk

@pk.classtype
class P:
    def __init__(self, x: float):
        self.x: float = x

@pk.functor
class F:
    def __init__(self, p):
        self.p: pk.View1D[P] = p

    @pk.workunit
    def run(self, i: int):
        pass
