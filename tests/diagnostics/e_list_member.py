# expect: 19:27: data member 'self.num_ghost' is a Python list (or dict, str, ...), which stays in Python: kernels and @pk.main cannot read it; make it a View
from typing import List
import pykokkos as pk


@pk.workload
class Comm:
    def __init__(self, n: int):
        self.n: int = n
        self.num_ghost: List[int] = [0] * 6
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.fill)

    @pk.workunit
    def fill(self, i: int):
        self.x[i] = 2.0 * self.num_ghost[0]
