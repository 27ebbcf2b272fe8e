# expect: 12:49: workunit 'work' is a parallel_for workunit but is dispatched with pk.parallel_reduce
import pykokkos as pk

@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.total: float = 0.0

    @pk.main
    def run(self):
        self.total = pk.parallel_reduce(self.n, self.work)

    @pk.workunit
    def work(self, i: int):
        pass
