"""Random_XorShift64_Pool: get_state / drand / free_state in a kernel; 10,000
draws in [0, 1) with mean 0.5."""
import numpy as np
import pykokkos as pk

@pk.workunit
def draw(i: int, pool: pk.Random_XorShift64_Pool, out: pk.View1D[pk.double]):
    state = pool.get_state()
    x: float = state.drand()
    out[i] = x
    pool.free_state(state)

pool = pk.Random_XorShift64_Pool(12345)
out = pk.View([10000], pk.double)
pk.parallel_for(10000, draw, pool=pool, out=out)
a = np.asarray(out)
print("OK" if a.min() >= 0 and a.max() < 1 and abs(a.mean() - 0.5) < 0.02 else f"BAD {a.mean()}")
