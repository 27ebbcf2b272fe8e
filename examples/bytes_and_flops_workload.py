"""Kokkos benchmark bytes_and_flops as a workload: a team kernel with tunable arithmetic intensity.

    pkc build examples/bytes_and_flops_workload.py
    python3 examples/bytes_and_flops_workload.py [N [K [R [F [NREPEAT]]]]]
                                  (default N = 4096 teams, K = 1024, R = 1, F = 10, 10 repeats)

One team per row n of the N x K Views A, B, C (TeamPolicy(N, AUTO)); inside,
R times, the team's threads sweep the row (TeamThreadRange(m, K)): each
element loads A and B, makes 8 independent values (unroll 8) and runs F
multiply-add steps on each, then stores their sum in C. Bytes per element
and pass are fixed (24), flops are 16 F + 14, so F sets flops per byte.
C is checked against the same recurrence in numpy.
"""
# test-args: 16 40 2 5 2
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class BytesAndFlops:
    def __init__(self, N: int, K: int, R: int, F: int, nrepeat: int):
        self.N: int = N
        self.K: int = K
        self.R: int = R
        self.F: int = F
        self.nrepeat: int = nrepeat
        self.seconds: float = 0.0
        self.A: pk.View2D[pk.double] = pk.View([N, K], pk.double)
        self.B: pk.View2D[pk.double] = pk.View([N, K], pk.double)
        self.C: pk.View2D[pk.double] = pk.View([N, K], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(pk.MDRangePolicy([0, 0], [self.N, self.K]), self.init)
        pk.parallel_for(pk.TeamPolicy(self.N, pk.AUTO), self.benchmark)  # warm-up
        pk.fence()
        timer = pk.Timer()
        for r in range(self.nrepeat):
            pk.parallel_for(pk.TeamPolicy(self.N, pk.AUTO), self.benchmark)
        pk.fence()
        self.seconds = timer.seconds()

    @pk.workunit
    def init(self, n: int, k: int):
        self.A[n][k] = 0.5 + ((n * 31 + k) % 13) * 0.0625
        self.B[n][k] = ((n + 3 * k) % 17) * 0.001

    @pk.workunit
    def benchmark(self, team: pk.TeamMember):
        n: int = team.league_rank()
        for r in range(self.R):
            def sweep(i: int):
                a1: float = self.A[n][i]
                b: float = self.B[n][i]
                a2: float = a1 * 1.3
                a3: float = a2 * 1.1
                a4: float = a3 * 1.1
                a5: float = a4 * 1.1
                a6: float = a5 * 1.1
                a7: float = a6 * 1.1
                a8: float = a7 * 1.1
                for f in range(self.F):
                    a1 += b * a1
                    a2 += b * a2
                    a3 += b * a3
                    a4 += b * a4
                    a5 += b * a5
                    a6 += b * a6
                    a7 += b * a7
                    a8 += b * a8
                self.C[n][i] = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8

            pk.parallel_for(pk.TeamThreadRange(team, self.K), sweep)


def reference(N, K, F):
    n, k = np.arange(N)[:, None], np.arange(K)[None, :]
    a = [0.5 + ((n * 31 + k) % 13) * 0.0625]
    b = ((n + 3 * k) % 17) * 0.001
    a.append(a[0] * 1.3)
    for _ in range(6):
        a.append(a[-1] * 1.1)
    for _ in range(F):
        a = [v + b * v for v in a]
    c = a[0]
    for v in a[1:]:
        c = c + v
    return c


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    K = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    R = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    F = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    nrepeat = int(sys.argv[5]) if len(sys.argv) > 5 else 10
    w = BytesAndFlops(N, K, R, F, nrepeat)
    pk.execute(pk.ExecutionSpace.Default, w)
    per = w.seconds / nrepeat
    elems = float(N) * K * R
    gbytes = 1e-9 * elems * 3 * 8
    gflops = 1e-9 * elems * (16 * F + 14)
    print(f"bytes_and_flops_workload: N={N} K={K} R={R} F={F} nrepeat={nrepeat} "
          f"mean kernel {per * 1e3:.6f} ms ({gbytes / max(per, 1e-12):.2f} GB/s, "
          f"{gflops / max(per, 1e-12):.2f} GFlop/s, {(16 * F + 14) / 24.0:.2f} flop/byte)")

    expect = reference(N, K, F)
    got = w.C.to_numpy()
    if not np.allclose(got, expect, rtol=1e-12, atol=0.0):
        bad = np.argwhere(~np.isclose(got, expect, rtol=1e-12, atol=0.0))
        print(f"bytes_and_flops_workload: verification FAILED ({len(bad)} wrong elements of C, "
              f"first at {bad[0].tolist()})")
        sys.exit(1)
    print(f"bytes_and_flops_workload: verification PASSED (sum of C = {float(got.sum()):.10g})")


if __name__ == "__main__":
    main()
