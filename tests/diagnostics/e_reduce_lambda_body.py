# expect: 13:64: a parallel_reduce lambda's body must be a sum that starts with the accumulator, e.g. 'acc + expression'
import pykokkos as pk

@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.total: float = 0.0
        self.A: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        self.total = pk.parallel_reduce(self.n, lambda i, acc: self.A[i])
