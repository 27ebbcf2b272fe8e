# expect: 12:9: cannot assign to View member 'self.A' in @pk.main; write its elements in a workunit instead
import pykokkos as pk

@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.A: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        self.A = self.A
