"""reducer=pk.Max / pk.Min at a parallel_reduce inside @pk.main, as at a host
launch: the workunit reduces with that reducer (the dispatch was rejected as
taking too many arguments). Negative values, so a sum of partial maxima or a
start value of 0 cannot pass for the maximum."""
import numpy as np
import pykokkos as pk


@pk.workload
class Extremes:
    def __init__(self, x):
        self.x: pk.View1D[pk.double] = x
        self.hi: float = 0.0
        self.lo: float = 0.0

    @pk.main
    def run(self):
        self.hi = pk.parallel_reduce("hi", self.x.extent(0), self.vmax, reducer=pk.Max)
        lo: float = pk.parallel_reduce("lo", self.x.extent(0), self.vmin, reducer=pk.Min)
        self.lo = lo

    @pk.workunit
    def vmax(self, i: int, acc: pk.Acc[pk.double]):
        acc = max(acc, self.x[i])

    @pk.workunit
    def vmin(self, i: int, acc: pk.Acc[pk.double]):
        if self.x[i] < acc:
            acc = self.x[i]


x = -np.random.default_rng(2).uniform(1.0, 9.0, size=10001)
w = Extremes(pk.from_numpy(x))
pk.execute(pk.ExecutionSpace.Default, w)
print("OK" if (w.hi, w.lo) == (x.max(), x.min()) else f"BAD {w.hi} {w.lo} for {x.max()} {x.min()}")
