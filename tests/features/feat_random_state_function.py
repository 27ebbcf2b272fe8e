"""A pool's state passed to @pk.function helpers (annotated
`pk.Random_XorShift64` / `pk.Random_XorShift1024`, Kokkos' generator types):
the helper draws through the caller's state, so two calls in one work item
give two different numbers, and the kernel's own draws after them continue
the same stream. Uniform draws in [-1, 1) with the mean and spread of a
uniform distribution; normal draws with mean 0 and variance 1."""
import numpy as np
import pykokkos as pk


@pk.function
def direction(state: pk.Random_XorShift64) -> float:
    return 2.0 * state.drand() - 1.0


@pk.function
def gaussian_pair(state: pk.Random_XorShift1024, out: pk.View2D[pk.double], i: int):
    out[i][0] = state.normal()
    out[i][1] = state.normal()


@pk.workunit
def walk(i: int, pool: pk.Random_XorShift64_Pool, steps: pk.View2D[pk.double]):
    st = pool.get_state()
    steps[i][0] = direction(st)
    steps[i][1] = direction(st)
    steps[i][2] = 2.0 * st.drand() - 1.0
    pool.free_state(st)


@pk.workunit
def noise(i: int, pool: pk.Random_XorShift1024_Pool, out: pk.View2D[pk.double]):
    st = pool.get_state()
    gaussian_pair(st, out, i)
    pool.free_state(st)


n = 20000
steps = pk.View([n, 3], pk.double)
pk.parallel_for(n, walk, pool=pk.Random_XorShift64_Pool(11), steps=steps)
s = np.asarray(steps)
g = pk.View([n, 2], pk.double)
pk.parallel_for(n, noise, pool=pk.Random_XorShift1024_Pool(5), out=g)
z = np.asarray(g).ravel()
checks = [
    ("distinct draws", bool(np.all(s[:, 0] != s[:, 1]) and np.all(s[:, 1] != s[:, 2])), True),
    ("range", bool(s.min() >= -1.0 and s.max() < 1.0), True),
    ("uniform mean", abs(s.mean()) < 0.02, True),
    ("uniform variance", abs(s.var() - 1.0 / 3.0) < 0.02, True),
    ("normal pairs differ", bool(np.all(np.asarray(g)[:, 0] != np.asarray(g)[:, 1])), True),
    ("normal moments", abs(z.mean()) < 0.03 and abs(z.var() - 1.0) < 0.05, True),
]
bad = [c[0] for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
