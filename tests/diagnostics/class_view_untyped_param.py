# expect: 11:5: 'p[i].x' needs the type of parameter 'p', which is known only at the call; annotate it (p: pk.View1D[C] for a View of @pk.classtype C values)
import pykokkos as pk

@pk.classtype
class P:
    def __init__(self, x: float):
        self.x: float = x

@pk.workunit
def k(i, p):
    p[i].x = 1.0
