# flags: --fusion-report
# expect-note: 28:9: fused: 'advance', 'kinetic', 'potential' and 'fastest' (lines 28-31) run as one kernel computing their 3 reductions in one pass
# expect-note: 32:9: not fused: kernel 'relative' (line 57) reads 'ke', the result of reduction kernel 'kinetic' (line 45), known only once 'kinetic' has finished
# expect-note: 32:9: fused: 'relative', 'kinetic' and 'potential' (lines 32-34) run as one kernel computing their 3 reductions in one pass
# expect-note: 37:9: not fused: kernel 'potential' (line 48) accesses no View at the same point as 'kinetic', so fusing would save no memory traffic (reductions that share no View fuse only over the same bounds, to share one launch)
"""pkc check --fusion-report on chains of reductions: several in one kernel
(sum and max, float64 and int64), also when they share no View but run over
the same bounds; not when one reads an earlier result of its chain (it may
read one of an earlier kernel: 'relative' reads the first chain's 'ke') or
the bounds differ."""
import pykokkos as pk


@pk.workload
class Energies:
    def __init__(self, n: int, m: int):
        self.n: int = n
        self.m: int = m
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.v: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.ke: float = 0.0
        self.pe: float = 0.0
        self.top: int = 0
        self.rel: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.advance)
        self.ke = pk.parallel_reduce(self.n, self.kinetic)
        self.pe = pk.parallel_reduce(self.n, self.potential)
        self.top = pk.parallel_reduce(self.n, self.fastest)
        self.rel = pk.parallel_reduce(self.n, self.relative)
        self.ke = pk.parallel_reduce(self.n, self.kinetic)
        self.pe = pk.parallel_reduce(self.n, self.potential)
        pk.fence()
        self.ke = pk.parallel_reduce(self.n, self.kinetic)
        self.pe = pk.parallel_reduce(self.m, self.potential)

    @pk.workunit
    def advance(self, i: int):
        self.x[i] += 0.1 * self.v[i]

    @pk.workunit
    def kinetic(self, i: int, acc: pk.Acc[pk.double]):
        acc += 0.5 * self.v[i] * self.v[i]

    @pk.workunit
    def potential(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.x[i] * self.x[i]

    @pk.workunit
    def fastest(self, i: int, acc: pk.Max[pk.int64]):
        acc = max(acc, int(self.v[i]))

    @pk.workunit
    def relative(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.v[i] / self.ke
