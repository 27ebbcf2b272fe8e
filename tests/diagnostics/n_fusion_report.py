# flags: --fusion-report
# expect-note: 26:9: fused: 'init' and 'axpy' (lines 26-27) run as one kernel
# expect-note: 28:9: not fused: kernel 'stencil' (line 49) reads 'y' at i + 1, which kernel 'init' (line 40) writes at i (read after write across points)
# expect-note: 30:9: fused: 'axpy' repeated by the loop of line 30 run as one kernel with an inner loop
# expect-note: 33:9: not fused: kernel 'gather' (line 57) reads 'x' at self.idx[i], which kernel 'shift' (line 53) writes at i (read after write across points)
# expect-note: 34:9: not fused: kernel 'stencil_sum' (line 60) accesses no View at the same point as 'gather', so fusing would save no memory traffic
# expect-note: 35:9: not fused: kernel 'axpy' (line 45) writes 'y' at i, which kernel 'stencil_sum' (line 61) reads at (i + 1) % self.n (write after read across points)
"""pkc check --fusion-report: one note per candidate chain of @pk.main, with
the rule, the View, the kernels and their lines when it does not fuse."""
import pykokkos as pk


@pk.workload
class Report:
    def __init__(self, n: int):
        self.n: int = n
        self.a: float = 2.0
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.y: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.z: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.idx: pk.View1D[pk.int32] = pk.View([n], pk.int32)
        self.total: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        pk.parallel_for(self.n, self.axpy)
        pk.parallel_for(self.n - 1, self.stencil)
        pk.fence()
        for r in range(10):
            pk.parallel_for(self.n, self.axpy)
        pk.parallel_for(self.n, self.shift)
        pk.parallel_for(self.n, self.gather)
        self.total = pk.parallel_reduce(self.n, self.stencil_sum)
        pk.parallel_for(self.n, self.axpy)

    @pk.workunit
    def init(self, i: int):
        self.x[i] = 1.0 * i
        self.y[i] = 0.0
        self.idx[i] = (i + 3) % self.n

    @pk.workunit
    def axpy(self, i: int):
        self.y[i] = self.a * self.x[i] + self.y[i]

    @pk.workunit
    def stencil(self, i: int):
        self.z[i] = self.y[i] + self.y[i + 1]

    @pk.workunit
    def shift(self, i: int):
        self.x[i] = self.x[i] + 1.0

    @pk.workunit
    def gather(self, i: int):
        self.z[i] = self.x[self.idx[i]]

    @pk.workunit
    def stencil_sum(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.y[i] * self.y[(i + 1) % self.n]
