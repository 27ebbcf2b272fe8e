"""PRK nstream (A += B + scalar * C) in the ClassSty style: a @pk.functor.

    pkc build examples/nstream_functor.py
    python3 examples/nstream_functor.py [N [ITERATIONS]]   (default N = 2**20, 10 iterations)

The functor holds the three Views and the scalar as typed members; its
workunits initialise the arrays, run the triad-like update and reduce the sum
of |A| that the Parallel Research Kernels check against a closed form. Each
iteration is timed on its own with pk.Timer after pk.fence; the median is reported.
"""
# test-args: 100000 5
import statistics
import sys

import pykokkos as pk


@pk.functor
class NStream:
    def __init__(self, scalar: float, A: pk.View1D[pk.double], B: pk.View1D[pk.double],
                 C: pk.View1D[pk.double]):
        self.scalar: float = scalar
        self.A: pk.View1D[pk.double] = A
        self.B: pk.View1D[pk.double] = B
        self.C: pk.View1D[pk.double] = C

    @pk.workunit
    def init(self, i: int):
        self.A[i] = 0.0
        self.B[i] = 2.0
        self.C[i] = 2.0

    @pk.workunit
    def nstream(self, i: int):
        self.A[i] += self.B[i] + self.scalar * self.C[i]

    @pk.workunit
    def asum(self, i: int, acc: pk.Acc[pk.double]):
        acc += abs(self.A[i])


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    scalar = 3.0
    f = NStream(scalar, pk.View([N], pk.double), pk.View([N], pk.double), pk.View([N], pk.double))
    policy = pk.RangePolicy(0, N)
    pk.parallel_for("init", policy, f.init)
    pk.parallel_for("nstream", policy, f.nstream)  # warm-up
    pk.fence()
    times = []
    for _ in range(iterations):
        timer = pk.Timer()
        pk.parallel_for("nstream", policy, f.nstream)
        pk.fence()
        times.append(timer.seconds())

    median = statistics.median(times)
    print(f"nstream_functor: N={N} iterations={iterations} kernel median {median * 1e3:.6f} ms "
          f"({4.0 * 8 * N / median / 1e9:.2f} GB/s)")
    asum = pk.parallel_reduce("asum", policy, f.asum)
    reference = N * (iterations + 1) * (2.0 + scalar * 2.0)
    error = abs(asum - reference) / reference
    if error > 1e-8:
        print(f"nstream_functor: verification FAILED (sum of A {asum!r}, expected {reference!r})")
        sys.exit(1)
    print(f"nstream_functor: verification PASSED (sum of A = {asum:.6g}, relative error {error:.1e})")


if __name__ == "__main__":
    main()
