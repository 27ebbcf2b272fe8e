# expect: 9:39: a View of classtype 'P' has layout pk.AoS or pk.SoA, not 'pk.LayoutLeft'
import pykokkos as pk

@pk.classtype
class P:
    def __init__(self, x: float):
        self.x: float = x

@pk.workunit(p=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def k(i: int, p: pk.View1D[P]):
    p[i].x = 1.0
