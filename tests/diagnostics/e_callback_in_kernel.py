# expect: 16:9: a @pk.callback runs in Python; it cannot be called from a kernel or @pk.main
import pykokkos as pk

@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.A: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.work)

    @pk.workunit
    def work(self, i: int):
        self.report()

    @pk.callback
    def report(self):
        print(self.A)
