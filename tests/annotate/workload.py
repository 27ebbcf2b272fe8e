"""A workload for tests/annotate: @pk.main, then a @pk.function and the
workunit main dispatches, with blank lines between them."""
import pykokkos as pk


@pk.workload
class Scale:
    def __init__(self, n: int):
        self.n: int = n
        self.v: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.scale)

    @pk.function
    def twice(self, x: float) -> float:
        return 2.0 * x

    @pk.workunit
    def scale(self, i: int):
        self.v[i] = self.twice(self.v[i])


if __name__ == "__main__":
    pk.execute(pk.ExecutionSpace.Default, Scale(8))
