"""`v.shape[k]` (numpy's spelling) inside kernels is the View's extent k,
for a parameter and a functor member; against numpy's shapes."""
import numpy as np
import pykokkos as pk


@pk.workunit
def sizes(i: int, m: pk.View2D[pk.double], out: pk.View1D[pk.int64]):
    out[i] = m.shape[0] * 100 + m.shape[1] + i


@pk.functor
class RowMeans:
    def __init__(self, m: pk.View2D[pk.double], mean: pk.View1D[pk.double]):
        self.m: pk.View2D[pk.double] = m
        self.mean: pk.View1D[pk.double] = mean

    @pk.workunit
    def run(self, i: int):
        s: float = 0.0
        for j in range(self.m.shape[1]):
            s += self.m[i][j]
        self.mean[i] = s / self.m.shape[1]


a = np.arange(12.0).reshape(3, 4)
m = pk.array(a)
out = pk.View([2], pk.int64)
pk.parallel_for(2, sizes, m=m, out=out)
mean = pk.View([3], pk.double)
pk.parallel_for(3, RowMeans(m, mean).run)
ok = (np.asarray(out).tolist() == [304, 305] and
      np.allclose(np.asarray(mean), a.mean(axis=1)))
print("OK" if ok else f"BAD {np.asarray(out).tolist()} {np.asarray(mean).tolist()}")
