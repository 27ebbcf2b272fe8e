"""A workload whose @pk.main dispatches a workunit, a lambda reduction into a
member and pk.printf; the member's value is checked from the host."""
import pykokkos as pk

@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.total: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.fill)
        self.total = pk.parallel_reduce(self.n, lambda i, acc: acc + self.x[i])
        pk.printf("main done\n")

    @pk.workunit
    def fill(self, i: int):
        self.x[i] = 1.0

    @pk.callback
    def report(self):
        print("OK" if self.total == self.n else f"BAD {self.total}")

w = W(10)
pk.execute(pk.ExecutionSpace.Default, w)
w.report()
