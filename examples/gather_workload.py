"""Kokkos benchmark gather as a workload: reads through an index View.

    pkc build examples/gather_workload.py
    python3 examples/gather_workload.py [N [K [D [F [NREPEAT]]]]]
                                  (default N = 2^20, K = 32, D = 1024, F = 2, 10 repeats)

Every entity i has K neighbours conn[i][jj], within distance D of i (mod N).
The kernel gathers A and B of each neighbour, makes 4 values from A (unroll
4), runs F multiply-add steps on each and adds them into C[i]. The
connectivity is made by a kernel from a hash of (i, jj). C is checked
against the same computation in numpy (numpy fancy indexing).
"""
# test-args: 1000 8 16 2 2
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Gather:
    def __init__(self, N: int, K: int, D: int, F: int, nrepeat: int):
        self.N: int = N
        self.K: int = K
        self.D: int = D
        self.F: int = F
        self.nrepeat: int = nrepeat
        self.seconds: float = 0.0
        self.conn: pk.View2D[pk.int32] = pk.View([N, K], pk.int32)
        self.A: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.B: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.C: pk.View1D[pk.double] = pk.View([N], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(self.N, self.init)
        pk.parallel_for(self.N, self.gather)  # warm-up
        pk.fence()
        timer = pk.Timer()
        for r in range(self.nrepeat):
            pk.parallel_for(self.N, self.gather)
        pk.fence()
        self.seconds = timer.seconds()

    @pk.workunit
    def init(self, i: int):
        self.A[i] = 0.5 + (i % 13) * 0.0625
        self.B[i] = (i % 17) * 0.001
        for jj in range(self.K):
            offset: int = (i * 7919 + jj * 104729) % (2 * self.D + 1) - self.D
            self.conn[i][jj] = (i + offset) % self.N

    @pk.workunit
    def gather(self, i: int):
        c: float = 0.0
        for jj in range(self.K):
            j: int = self.conn[i][jj]
            a1: float = self.A[j]
            b: float = self.B[j]
            a2: float = a1 * 1.3
            a3: float = a2 * 1.1
            a4: float = a3 * 1.1
            for f in range(self.F):
                a1 += b * a1
                a2 += b * a2
                a3 += b * a3
                a4 += b * a4
            c += a1 + a2 + a3 + a4
        self.C[i] = c


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
    w = Gather(N, K, D, F, nrepeat)
    pk.execute(pk.ExecutionSpace.Default, w)
    per = w.seconds / nrepeat
    gbytes = 1e-9 * N * (K * (4 + 8 + 8) + 8)
    print(f"gather_workload: N={N} K={K} D={D} F={F} nrepeat={nrepeat} mean kernel {per * 1e3:.6f} ms "
          f"({gbytes / max(per, 1e-12):.2f} GB/s)")

    conn, expect = reference(N, K, D, F)
    if not np.array_equal(w.conn.to_numpy(), conn):
        print("gather_workload: verification FAILED (connectivity differs from numpy)")
        sys.exit(1)
    got = w.C.to_numpy()
    if not np.allclose(got, expect, rtol=1e-12, atol=0.0):
        bad = np.flatnonzero(~np.isclose(got, expect, rtol=1e-12, atol=0.0))
        print(f"gather_workload: verification FAILED ({bad.size} wrong entries of C, first at {bad[0]})")
        sys.exit(1)
    print(f"gather_workload: verification PASSED (sum of C = {float(got.sum()):.10g})")


if __name__ == "__main__":
    main()
