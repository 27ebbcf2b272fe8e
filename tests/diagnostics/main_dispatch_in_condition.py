# expect: 13:21: is supported in @pk.main as a statement or inside the value of an assignment
import pykokkos as pk


@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.mean: float = 0.0

    @pk.main
    def run(self):
        self.mean = pk.parallel_reduce(self.n, self.s) if self.n > 0 else 0.0

    @pk.workunit
    def s(self, i: int, acc: pk.Acc[pk.double]):
        acc += i
