"""Random_XorShift1024_Pool: normal, urand, frand, rand and drand(lo, hi) draws
with the expected ranges and moments."""
import numpy as np
import pykokkos as pk

@pk.workunit
def draw(i: int, pool: pk.Random_XorShift1024_Pool, out: pk.View2D[pk.double]):
    state = pool.get_state()
    out[i][0] = state.normal()
    out[i][1] = float(state.urand())
    out[i][2] = float(state.frand())
    out[i][3] = float(state.rand())
    out[i][4] = state.drand(2.0, 3.0)
    pool.free_state(state)

pool = pk.Random_XorShift1024_Pool(5)
out = pk.View([20000, 5], pk.double)
pk.parallel_for(20000, draw, pool=pool, out=out)
a = np.asarray(out)
ok = abs(a[:, 0].mean()) < 0.05 and abs(a[:, 0].std() - 1) < 0.05 and a[:, 1].max() > 2**31 and 0 <= a[:, 2].min() and a[:, 2].max() < 1 and a[:, 3].min() >= 0 and 2 <= a[:, 4].min() and a[:, 4].max() < 3
print("OK" if ok else f"BAD {a.mean(0)}")
