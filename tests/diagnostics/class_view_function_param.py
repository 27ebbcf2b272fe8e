# expect: 10:15: parameter 'p' of 'f' is a View of classtype 'P', which only a FunctionSty @pk.workunit can take for now; pass its element p[i]
import pykokkos as pk

@pk.classtype
class P:
    def __init__(self, x: float):
        self.x: float = x

@pk.function
def f(i: int, p: pk.View1D[P]):
    p[i].x = 1.0

@pk.workunit
def k(i: int, p: pk.View1D[P]):
    p[i].x = 0.0
