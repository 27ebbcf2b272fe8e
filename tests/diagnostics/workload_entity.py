# expect: 6:7: workload 'W' has no @pk.main method; add one (it runs with pk.execute) or use @pk.functor
import pykokkos as pk
import math

@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n

    @pk.workunit
    def work(self, i: int):
        pass
