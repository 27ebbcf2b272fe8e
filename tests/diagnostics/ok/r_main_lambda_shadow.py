# A @pk.main lambda reading member self.v and a local v: the member copy must
# not hide the local (emitted as __self_v_).
import pykokkos as pk

@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.v: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.total: float = 0.0

    @pk.main
    def run(self):
        v: float = 2.0
        self.total = pk.parallel_reduce(self.n, lambda j, acc: acc + self.v[j] * v)
