"""PRK nstream: A += B + scalar * C, a memory-bandwidth-bound kernel.

    pkc build examples/nstream.py
    python3 examples/nstream.py [N [ITERATIONS]]     (default N = 2**20, 10 iterations)

Each iteration is timed on its own (pk.Timer after pk.fence); the median
kernel time and the bandwidth it implies are reported, then the sum of A is
checked against its closed form, as the Parallel Research Kernels do.
PK_TIMING=batch times ITERATIONS back-to-back launches and one fence, divided
by ITERATIONS, PK_TIMING_REPEATS (default 5) times, and reports the median: the
launches overlap the kernels, so it is the kernel's throughput time.
"""
import os
import statistics
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def nstream(i: int, A: pk.View1D[pk.double], B: pk.View1D[pk.double],
            C: pk.View1D[pk.double], scalar: float):
    A[i] += B[i] + scalar * C[i]


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    scalar = 3.0
    A = pk.View([N], pk.double)
    B = pk.View([N], pk.double)
    C = pk.View([N], pk.double)
    A.fill(0.0)
    B.fill(2.0)
    C.fill(2.0)
    policy = pk.RangePolicy(0, N)

    # One untimed warm-up iteration, then `iterations` timed ones.
    pk.parallel_for("nstream", policy, nstream, A=A, B=B, C=C, scalar=scalar)
    pk.fence()
    times, mode, launches = [], "", iterations  # launches: timed kernel runs
    if os.environ.get("PK_TIMING") == "batch":
        repeats = int(os.environ.get("PK_TIMING_REPEATS", "5"))
        for _ in range(repeats):
            timer = pk.Timer()
            for _ in range(iterations):
                pk.parallel_for("nstream", policy, nstream, A=A, B=B, C=C, scalar=scalar)
            pk.fence()
            times.append(timer.seconds() / iterations)
        mode, launches = f"timing=batch K={iterations} R={repeats} ", iterations * repeats
    else:
        for _ in range(iterations):
            timer = pk.Timer()
            pk.parallel_for("nstream", policy, nstream, A=A, B=B, C=C, scalar=scalar)
            pk.fence()
            times.append(timer.seconds())

    median = statistics.median(times)
    nbytes = 4.0 * 8 * N  # read A, B, C and write A, doubles
    print(f"nstream: N={N} iterations={iterations} {mode}median kernel {median * 1e3:.6f} ms "
          f"({nbytes / median / 1e9:.2f} GB/s)")

    asum = float(np.abs(np.asarray(A)).sum())
    reference = N * (launches + 1) * (2.0 + scalar * 2.0)
    error = abs(asum - reference) / reference
    if error > 1e-8:
        print(f"nstream: verification FAILED (sum of A {asum!r}, expected {reference!r})")
        sys.exit(1)
    print(f"nstream: verification PASSED (sum of A = {asum:.6g}, relative error {error:.1e})")


if __name__ == "__main__":
    main()
