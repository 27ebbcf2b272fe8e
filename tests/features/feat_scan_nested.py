"""A parallel_scan over TeamThreadRange, and one over TeamVectorRange (which
Kokkos scans on host teams only; on GPUs pkc scans it over the team's threads),
inside TeamPolicy workunits (pk.AUTO team size): per-row prefix sums against
numpy.cumsum. Also built for CUDA and HIP by the gpu-compile group."""
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

@pk.workunit
def kv(m: pk.TeamMember, n: int, x: pk.View2D[pk.double], y: pk.View2D[pk.double]):
    e: int = m.league_rank()
    def sc(j: int, acc: pk.Acc[pk.double], final: bool):
        if final:
            y[e][j] = acc
        acc += x[e][j]
    pk.parallel_scan(pk.TeamVectorRange(m, 1, n), sc)

x = pk.from_numpy(np.arange(10, dtype=np.int64).reshape(2, 5))
y = pk.View([2, 5], pk.int64)
pk.parallel_for(pk.TeamPolicy(2, pk.AUTO), k, n=5, x=x, y=y)
bad = [] if np.array_equal(np.asarray(y), np.cumsum(np.arange(10).reshape(2, 5), axis=1)) else [f"{np.asarray(y)}"]
xv = np.random.default_rng(5).uniform(size=(7, 300))
want = np.zeros((7, 300))
want[:, 1:] = np.cumsum(xv[:, 1:], axis=1) - xv[:, 1:]   # exclusive, from index 1
xi = np.random.default_rng(6).integers(-50, 50, size=(9, 333))
for vector in (1, 4):   # Kokkos 3.4's GPU team scan needs a vector length of 1
    yv = np.zeros((7, 300))
    pk.parallel_for(pk.TeamPolicy(7, pk.AUTO, vector), kv, n=300, x=xv, y=yv)
    if not np.allclose(yv, want, rtol=1e-12):
        bad.append(f"TeamVectorRange scan, vector length {vector}")
    yi = np.zeros((9, 333), dtype=np.int64)
    pk.parallel_for(pk.TeamPolicy(9, pk.AUTO, vector), k, n=333, x=xi, y=yi)
    if not np.array_equal(yi, np.cumsum(xi, axis=1)):
        bad.append(f"TeamThreadRange scan, vector length {vector}")
print("OK" if not bad else f"BAD {bad}")
