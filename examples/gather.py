"""Kokkos benchmark gather (FunctionSty): reads through an index View.

    pkc build examples/gather.py
    python3 examples/gather.py [N [K [D [F [NREPEAT]]]]]
                                  (default N = 2^20, K = 32, D = 1024, F = 2, 10 repeats)

Every entity i has K neighbours conn[i][jj] within distance D of i (mod N),
made by a kernel from a hash of (i, jj). The kernel gathers A and B of each
neighbour, makes 4 values (unroll 4), runs F multiply-add steps on each
and adds them into C[i]. Prints the median kernel time; C is checked
against the same computation in numpy (fancy indexing).
"""
# test-args: 1000 8 16 2 2
import statistics
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def init(i: int, N: int, K: int, D: int, conn: pk.View2D[pk.int32], A: pk.View1D[pk.double],
         B: pk.View1D[pk.double]):
    A[i] = 0.5 + (i % 13) * 0.0625
    B[i] = (i % 17) * 0.001
    for jj in range(K):
        offset: int = (i * 7919 + jj * 104729) % (2 * D + 1) - D
        conn[i][jj] = (i + offset) % N


@pk.workunit
def gather(i: int, K: int, F: int, conn: pk.View2D[pk.int32], A: pk.View1D[pk.double],
           B: pk.View1D[pk.double], C: pk.View1D[pk.double]):
    c: float = 0.0
    for jj in range(K):
        j: int = conn[i][jj]
        a1: float = A[j]
        b: float = B[j]
        a2: float = a1 * 1.3
        a3: float = a2 * 1.1
        a4: float = a3 * 1.1
        for f in range(F):
            a1 += b * a1
            a2 += b * a2
            a3 += b * a3
            a4 += b * a4
        c += a1 + a2 + a3 + a4
    C[i] = c


def reference(N, K, D, F):
    i = np.arange(N, dtype=np.int64)
    A = 0.5 + (i % 13) * 0.0625
    B = (i % 17) * 0.001
    jj = np.arange(K, dtype=np.int64)
    conn = (i[:, None] + (i[:, None] * 7919 + jj[None, :] * 104729) % (2 * D + 1) - D) % N
    c = np.zeros(N)
    for k in range(K):
        a1 = A[conn[:, k]]
        b = B[conn[:, k]]
        a2 = a1 * 1.3
        a3 = a2 * 1.1
        a4 = a3 * 1.1
        for _ in range(F):
            a1, a2, a3, a4 = a1 + b * a1, a2 + b * a2, a3 + b * a3, a4 + b * a4
        c = c + (a1 + a2 + a3 + a4)
    return conn, c


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    K = int(sys.argv[2]) if len(sys.argv) > 2 else 32
    D = int(sys.argv[3]) if len(sys.argv) > 3 else 1024
    F = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    nrepeat = int(sys.argv[5]) if len(sys.argv) > 5 else 10
    conn = pk.View([N, K], pk.int32)
    A = pk.View([N], pk.double)
    B = pk.View([N], pk.double)
    C = pk.View([N], pk.double)
    pk.parallel_for(N, init, N=N, K=K, D=D, conn=conn, A=A, B=B)
    args = dict(K=K, F=F, conn=conn, A=A, B=B, C=C)
    pk.parallel_for("gather", N, gather, **args)  # warm-up
    pk.fence()
    times = []
    for _ in range(nrepeat):
        timer = pk.Timer()
        pk.parallel_for("gather", N, gather, **args)
        pk.fence()
        times.append(timer.seconds())
    t = statistics.median(times)
    gbytes = 1e-9 * N * (K * (4 + 8 + 8) + 8)
    print(f"gather: N={N} K={K} D={D} F={F} nrepeat={nrepeat} median kernel {t * 1e3:.6f} ms "
          f"({gbytes / t:.2f} GB/s)")

    conn_np, expect = reference(N, K, D, F)
    if not np.array_equal(conn.to_numpy(), conn_np):
        print("gather: verification FAILED (connectivity differs from numpy)")
        sys.exit(1)
    got = C.to_numpy()
    if not np.allclose(got, expect, rtol=1e-12, atol=0.0):
        bad = np.flatnonzero(~np.isclose(got, expect, rtol=1e-12, atol=0.0))
        print(f"gather: verification FAILED ({bad.size} wrong entries of C, first at {bad[0]})")
        sys.exit(1)
    print(f"gather: verification PASSED (sum of C = {float(got.sum()):.10g})")


if __name__ == "__main__":
    main()
