# expect: 17:9: 'self' is the workload's instance; use another name for this variable
import pykokkos as pk


@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.v: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.workunit
    def fill(self, i: int):
        self.v[i] = 1.0

    @pk.main
    def run(self):
        self = 2.0
        pk.parallel_for(self.n, self.fill)
