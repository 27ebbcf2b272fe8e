# expect: 22:13: is not supported in @pk.main; call it in the Python code around pk.execute
"""pk.deep_copy in @pk.main: rejected with the way out (upstream does not translate it either)."""
import numpy as np
import pykokkos as pk


@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.u: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.v: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.workunit
    def step(self, i: int):
        self.v[i] = self.u[i] + 1.0

    @pk.main
    def run(self):
        for it in range(3):
            pk.parallel_for(self.n, self.step)
            pk.deep_copy(self.u, self.v)


