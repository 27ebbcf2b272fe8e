# expect: 20:13: data member 'self.num_ghost' is a Python list (or dict, str, ...), which stays in Python
# expect: 21:27: data member 'self.num_ghost' is a Python list (or dict, str, ...), which stays in Python
# expect: 26:23: data member 'self.num_ghost' is a Python list (or dict, str, ...), which stays in Python
from typing import List

import pykokkos as pk


@pk.workload
class Comm:
    def __init__(self, n: int):
        self.n: int = n
        self.num_ghost: List[int] = [0, 0, 0, 0, 0, 0]
        self.total: int = 0
        self.out: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        for p in range(6):
            self.num_ghost[p] = p + 1
            self.total += self.num_ghost[p]
        pk.parallel_for(self.n, self.k)

    @pk.workunit
    def k(self, i: int):
        self.out[i] = self.num_ghost[1]
