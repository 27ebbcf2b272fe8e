"""PRK transpose (B += A^T; A += 1) in the ClassStyWithMain style.

    pkc build examples/transpose_workload.py
    python3 examples/transpose_workload.py [ORDER [ITERATIONS [TILE]]]   (default 1024, 10, 32)

The @pk.main method initialises A(i, j) = i * order + j and B = 0, runs one
warm-up and ITERATIONS timed transpose sweeps (tiled MDRangePolicy) and
reduces the summed absolute error against the PRK closed form into a member.
"""
# test-args: 256 5 16
import sys

import pykokkos as pk


@pk.workload
class Transpose:
    def __init__(self, order: int, iterations: int, tile: int):
        self.order: int = order
        self.iterations: int = iterations
        self.tile: int = tile
        self.A: pk.View2D[pk.double] = pk.View([order, order], pk.double)
        self.B: pk.View2D[pk.double] = pk.View([order, order], pk.double)
        self.elapsed: float = 0.0
        self.err: float = 0.0

    @pk.main
    def run(self):
        policy = pk.MDRangePolicy([0, 0], [self.order, self.order], [self.tile, self.tile])
        pk.parallel_for("init", policy, self.init)
        pk.parallel_for("transpose", policy, self.transpose)  # warm-up
        pk.fence()
        timer = pk.Timer()
        for it in range(self.iterations):
            pk.parallel_for("transpose", policy, self.transpose)
        pk.fence()
        self.elapsed = timer.seconds()
        self.err = pk.parallel_reduce("abserr", policy, self.abserr)

    @pk.workunit
    def init(self, i: int, j: int):
        self.A[i][j] = float(i * self.order + j)
        self.B[i][j] = 0.0

    @pk.workunit
    def transpose(self, i: int, j: int):
        self.B[i][j] += self.A[j][i]
        self.A[j][i] += 1.0

    @pk.workunit
    def abserr(self, i: int, j: int, acc: pk.Acc[pk.double]):
        addit: float = (self.iterations + 1.0) * (0.5 * self.iterations)
        expected: float = float(j * self.order + i) * (self.iterations + 1.0) + addit
        acc += abs(self.B[i][j] - expected)


def main():
    order = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    tile = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    w = Transpose(order, iterations, tile)
    pk.execute(pk.ExecutionSpace.Default, w)
    print(f"transpose_workload: order={order} iterations={iterations} "
          f"mean kernel {w.elapsed / iterations * 1e3:.6f} ms")
    if not w.err < 1e-8:
        print(f"transpose_workload: verification FAILED (summed absolute error {w.err!r})")
        sys.exit(1)
    print(f"transpose_workload: verification PASSED (summed absolute error {w.err:.1e})")


if __name__ == "__main__":
    main()
