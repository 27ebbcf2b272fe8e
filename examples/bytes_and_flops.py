"""Kokkos benchmark bytes_and_flops (FunctionSty): a team kernel with tunable flops per byte.

    pkc build examples/bytes_and_flops.py
    python3 examples/bytes_and_flops.py [N [K [R [F [NREPEAT]]]]]
                                  (default N = 4096 teams, K = 1024, R = 1, F = 10, 10 repeats)

One team per row n of the N x K Views A, B, C (TeamPolicy(N, AUTO)); R
times, the team's threads sweep the row (TeamThreadRange(m, K)): load A and
B, make 8 independent values (unroll 8), run F multiply-add steps on each,
store their sum in C. 24 bytes and 16 F + 14 flops per element and pass.
The median kernel time is printed; C is checked against numpy.
"""
# test-args: 16 40 2 5 2
import statistics
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def init(n: int, k: int, A: pk.View2D[pk.double], B: pk.View2D[pk.double]):
    A[n][k] = 0.5 + ((n * 31 + k) % 13) * 0.0625
    B[n][k] = ((n + 3 * k) % 17) * 0.001


@pk.workunit
def benchmark(team: pk.TeamMember, K: int, R: int, F: int, A: pk.View2D[pk.double],
              B: pk.View2D[pk.double], C: pk.View2D[pk.double]):
    n: int = team.league_rank()
    for r in range(R):
        def sweep(i: int):
            a1: float = A[n][i]
            b: float = B[n][i]
            a2: float = a1 * 1.3
            a3: float = a2 * 1.1
            a4: float = a3 * 1.1
            a5: float = a4 * 1.1
            a6: float = a5 * 1.1
            a7: float = a6 * 1.1
            a8: float = a7 * 1.1
            for f in range(F):
                a1 += b * a1
                a2 += b * a2
                a3 += b * a3
                a4 += b * a4
                a5 += b * a5
                a6 += b * a6
                a7 += b * a7
                a8 += b * a8
            C[n][i] = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8

        pk.parallel_for(pk.TeamThreadRange(team, K), sweep)


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
    A = pk.View([N, K], pk.double)
    B = pk.View([N, K], pk.double)
    C = pk.View([N, K], pk.double)
    pk.parallel_for(pk.MDRangePolicy([0, 0], [N, K]), init, A=A, B=B)
    policy = pk.TeamPolicy(N, pk.AUTO)
    args = dict(K=K, R=R, F=F, A=A, B=B, C=C)
    pk.parallel_for("bytes_and_flops", policy, benchmark, **args)  # warm-up
    pk.fence()
    times = []
    for _ in range(nrepeat):
        timer = pk.Timer()
        pk.parallel_for("bytes_and_flops", policy, benchmark, **args)
        pk.fence()
        times.append(timer.seconds())
    t = statistics.median(times)
    elems = float(N) * K * R
    print(f"bytes_and_flops: N={N} K={K} R={R} F={F} nrepeat={nrepeat} median kernel {t * 1e3:.6f} ms "
          f"({1e-9 * elems * 24 / t:.2f} GB/s, {1e-9 * elems * (16 * F + 14) / t:.2f} GFlop/s, "
          f"{(16 * F + 14) / 24.0:.2f} flop/byte)")

    expect = reference(N, K, F)
    got = C.to_numpy()
    if not np.allclose(got, expect, rtol=1e-12, atol=0.0):
        bad = np.argwhere(~np.isclose(got, expect, rtol=1e-12, atol=0.0))
        print(f"bytes_and_flops: verification FAILED ({len(bad)} wrong elements of C, "
              f"first at {bad[0].tolist()})")
        sys.exit(1)
    print(f"bytes_and_flops: verification PASSED (sum of C = {float(got.sum()):.10g})")


if __name__ == "__main__":
    main()
