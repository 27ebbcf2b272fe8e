"""PRK nstream (A += B + scalar * C) in the ClassStyWithMain style.

    pkc build examples/nstream_workload.py
    python3 examples/nstream_workload.py [N [ITERATIONS]]   (default N = 2**20, 10 iterations)

The whole driver - initialisation, one warm-up iteration, the timed loop and
the checksum reduction - is the @pk.main method, translated to host C++ and
run with pk.execute. Scalar members written by main (elapsed, asum) come back
onto the Python instance, where the sum of A is checked against its closed form.
"""
# test-args: 100000 5
import sys

import pykokkos as pk


@pk.workload
class NStream:
    def __init__(self, N: int, iterations: int, scalar: float):
        self.N: int = N
        self.iterations: int = iterations
        self.scalar: float = scalar
        self.A: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.B: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.C: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.elapsed: float = 0.0
        self.asum: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for("init", pk.RangePolicy(0, self.N), self.init)
        pk.parallel_for("nstream", pk.RangePolicy(0, self.N), self.nstream)  # warm-up
        pk.fence()
        timer = pk.Timer()
        for it in range(self.iterations):
            pk.parallel_for("nstream", pk.RangePolicy(0, self.N), self.nstream)
        pk.fence()
        self.elapsed = timer.seconds()
        self.asum = pk.parallel_reduce(self.N, lambda i, acc: acc + abs(self.A[i]))

    @pk.workunit
    def init(self, i: int):
        self.A[i] = 0.0
        self.B[i] = 2.0
        self.C[i] = 2.0

    @pk.workunit
    def nstream(self, i: int):
        self.A[i] += self.B[i] + self.scalar * self.C[i]


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    w = NStream(N, iterations, 3.0)
    pk.execute(pk.ExecutionSpace.Default, w)

    per_iter = w.elapsed / iterations
    nbytes = 4.0 * 8 * N
    print(f"nstream_workload: N={N} iterations={iterations} mean kernel {per_iter * 1e3:.6f} ms "
          f"({nbytes / per_iter / 1e9:.2f} GB/s)")
    reference = N * (iterations + 1) * (2.0 + 3.0 * 2.0)
    error = abs(w.asum - reference) / reference
    if error > 1e-8:
        print(f"nstream_workload: verification FAILED (sum of A {w.asum!r}, expected {reference!r})")
        sys.exit(1)
    print(f"nstream_workload: verification PASSED (sum of A = {w.asum:.6g}, relative error {error:.1e})")


if __name__ == "__main__":
    main()
