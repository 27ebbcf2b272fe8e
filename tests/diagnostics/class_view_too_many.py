# expect: 11:7: 'k' takes more than 3 Views of classtypes (each doubles the kernels built: AoS and SoA); pass fewer
import pykokkos as pk

@pk.classtype
class P:
    def __init__(self, x: float):
        self.x: float = x

@pk.workunit
def k(i: int, a: pk.View1D[P], b: pk.View1D[P], c: pk.View1D[P],
      d: pk.View1D[P]):
    a[i].x = b[i].x + c[i].x + d[i].x
