"""pkc versions of bench/cuda/raw.cu's kernels (nstream, triad, copy, gups),
timed from Python like the raw CUDA and Kokkos versions: host timer around
launch + pk.fence(), median of ITERATIONS after one warm-up.

    pkc build --backend cuda bench/cuda/stream_pk.py
    PKC_BACKEND=cuda python3 bench/cuda/stream_pk.py [N_LOG2 [ITERATIONS]]
"""
import statistics
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def nstream(i: int, A: pk.View1D[pk.double], B: pk.View1D[pk.double],
            C: pk.View1D[pk.double], scalar: float):
    A[i] += B[i] + scalar * C[i]


@pk.workunit
def triad(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double],
          c: pk.View1D[pk.double], scalar: float):
    a[i] = b[i] + scalar * c[i]


@pk.workunit
def copy(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i]


@pk.workunit
def gups(i: int, T: pk.View1D[pk.int64], I: pk.View1D[pk.int64],
         V: pk.View1D[pk.int64]):
    T[I[i]] ^= V[i]


def median_time(iters, launch):
    launch()
    pk.fence()
    times = []
    for _ in range(iters):
        t = pk.Timer()
        launch()
        pk.fence()
        times.append(t.seconds())
    return statistics.median(times)


def main():
    lg = int(sys.argv[1]) if len(sys.argv) > 1 else 26
    iters = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    n = 1 << lg
    A, B, C = (pk.View([n], pk.double) for _ in range(3))
    B.fill(2.0)
    C.fill(2.0)
    p = pk.RangePolicy(0, n)
    t = median_time(iters, lambda: pk.parallel_for(p, nstream, A=A, B=B, C=C, scalar=3.0))
    print(f"pkc nstream    N=2^{lg} median {t*1e3:.4f} ms  {32.0*n/t/1e9:.1f} GB/s")
    expect = (iters + 1) * 8.0
    ok = float(np.asarray(A)[n // 3]) == expect
    t = median_time(iters, lambda: pk.parallel_for(p, triad, a=A, b=B, c=C, scalar=0.4))
    print(f"pkc triad      N=2^{lg} median {t*1e3:.4f} ms  {24.0*n/t/1e9:.1f} GB/s")
    t = median_time(iters, lambda: pk.parallel_for(p, copy, a=A, c=C))
    print(f"pkc copy       N=2^{lg} median {t*1e3:.4f} ms  {16.0*n/t/1e9:.1f} GB/s")
    ok = ok and abs(float(np.asarray(C)[7]) - 2.8) < 1e-12
    del A, B, C
    tn = n // 4
    rng = np.random.default_rng(1)
    T, I, V = pk.View([tn], pk.int64), pk.View([n], pk.int64), pk.View([n], pk.int64)
    np.asarray(I)[:] = rng.integers(0, tn, n)
    np.asarray(V)[:] = rng.integers(0, 1 << 62, n)
    t = median_time(iters, lambda: pk.parallel_for(p, gups, T=T, I=I, V=V))
    print(f"pkc gups       N=2^{lg} median {t*1e3:.4f} ms  {n/t/1e9:.3f} GUP/s")
    print("pkc check", "PASSED" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
