import pykokkos as pk
import math

@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n

    @pk.workunit
    def work(self, i: int):
        pass
