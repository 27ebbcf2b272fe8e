"""A parallel_scan over TeamThreadRange inside a TeamPolicy workunit (pk.AUTO
team size): per-row prefix sums against numpy.cumsum."""
import numpy as np
import pykokkos as pk

@pk.workunit
def k(m: pk.TeamMember, n: int, x: pk.View2D[pk.int64], y: pk.View2D[pk.int64]):
    e: int = m.league_rank()
    def sc(j: int, acc: pk.Acc[pk.int64], final: bool):
        acc += x[e][j]
        if final:
            y[e][j] = acc
    pk.parallel_scan(pk.TeamThreadRange(m, n), sc)

x = pk.from_numpy(np.arange(10, dtype=np.int64).reshape(2, 5))
y = pk.View([2, 5], pk.int64)
pk.parallel_for(pk.TeamPolicy(2, pk.AUTO), k, n=5, x=x, y=y)
print("OK" if np.array_equal(np.asarray(y), np.cumsum(np.arange(10).reshape(2, 5), axis=1)) else f"BAD {np.asarray(y)}")
