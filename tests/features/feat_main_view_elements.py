"""@pk.main (host code) reads and writes single View elements: a history of
residuals, a counter updated with += and //=, a 2-D element, a loop that runs
while an element is above a tolerance. On CUDA and HIP the Views live in device
memory, where a host access aborts: each element goes through a one-element
copy (pkc::host_at / pkc::host_get)."""
import numpy as np
import pykokkos as pk


@pk.workload
class Halving:
    def __init__(self, n: int):
        self.n: int = n
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.hist: pk.View1D[pk.double] = pk.View([64], pk.double)
        self.count: pk.View1D[pk.int64] = pk.View([2], pk.int64)
        self.grid: pk.View2D[pk.double] = pk.View([3, 4], pk.double)
        self.norm: pk.View1D[pk.double] = pk.View([1], pk.double)
        self.x.fill(1.0)

    @pk.main
    def run(self):
        r: float = pk.parallel_reduce(self.n, self.sq)
        self.norm[0] = r
        k: int = 0
        while self.norm[0] > 1e-6 and k < 64:
            pk.parallel_for(self.n, self.halve)
            self.hist[k] = self.norm[0]
            r = pk.parallel_reduce(self.n, self.sq)
            self.norm[0] = r
            self.count[0] += 1
            k += 1
        self.count[1] = 1000
        self.count[1] //= 7
        self.grid[2][3] = self.hist[0] + self.count[0]
        self.grid[1][0] -= 0.5

    @pk.workunit
    def halve(self, i: int):
        self.x[i] = self.x[i] * 0.5

    @pk.workunit
    def sq(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.x[i] * self.x[i]


w = Halving(100)
pk.execute(pk.ExecutionSpace.Default, w)
norms = [100.0 * 0.25 ** k for k in range(64)]
steps = next(k for k, v in enumerate(norms) if v <= 1e-6)
bad = []
if int(w.count[0]) != steps:
    bad.append(f"count {int(w.count[0])} != {steps}")
if int(w.count[1]) != 1000 // 7:
    bad.append(f"//= {int(w.count[1])}")
if not np.allclose(np.asarray(w.hist)[:steps], norms[:steps], rtol=1e-12):
    bad.append(f"history {np.asarray(w.hist)[:steps]}")
if float(w.grid[2][3]) != 100.0 + steps or float(w.grid[1][0]) != -0.5:
    bad.append(f"grid {np.asarray(w.grid)}")
print("OK" if not bad else f"BAD {bad}")
