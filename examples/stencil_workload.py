"""PRK stencil (radius-2 star, MDRangePolicy) in the ClassStyWithMain style.

    pkc build examples/stencil_workload.py
    python3 examples/stencil_workload.py [N [ITERATIONS [TILE]]]   (default 1000, 10, 32)

The @pk.main method initialises the grid, runs ITERATIONS + 1 stencil and
increment sweeps (the first untimed), times the rest with pk.Timer and reduces
the L1 norm of `out` over the interior into a member; Python then checks it
against the PRK closed form (ITERATIONS + 1) * 2 per interior point.
"""
# test-args: 200 5 16
import sys

import pykokkos as pk

RADIUS = 2


@pk.workload
class Stencil:
    def __init__(self, n: int, iterations: int, tile: int):
        self.n: int = n
        self.iterations: int = iterations
        self.tile: int = tile
        self.inp: pk.View2D[pk.double] = pk.View([n, n], pk.double)
        self.out: pk.View2D[pk.double] = pk.View([n, n], pk.double)
        self.elapsed: float = 0.0
        self.l1: float = 0.0

    @pk.main
    def run(self):
        full = pk.MDRangePolicy([0, 0], [self.n, self.n], [self.tile, self.tile])
        inside = pk.MDRangePolicy([RADIUS, RADIUS], [self.n - RADIUS, self.n - RADIUS],
                                  [self.tile, self.tile])
        pk.parallel_for("init", full, self.init)
        pk.parallel_for("stencil", inside, self.star2)  # warm-up
        pk.parallel_for("increment", full, self.increment)
        pk.fence()
        timer = pk.Timer()
        for it in range(self.iterations):
            pk.parallel_for("stencil", inside, self.star2)
            pk.parallel_for("increment", full, self.increment)
        pk.fence()
        self.elapsed = timer.seconds()
        self.l1 = pk.parallel_reduce("norm", inside, self.norm)

    @pk.workunit
    def init(self, i: int, j: int):
        self.inp[i][j] = float(i + j)
        self.out[i][j] = 0.0

    @pk.workunit
    def star2(self, i: int, j: int):
        self.out[i][j] += (self.inp[i - 2][j] * -0.125 + self.inp[i - 1][j] * -0.25
                           + self.inp[i][j - 2] * -0.125 + self.inp[i][j - 1] * -0.25
                           + self.inp[i][j + 1] * 0.25 + self.inp[i][j + 2] * 0.125
                           + self.inp[i + 1][j] * 0.25 + self.inp[i + 2][j] * 0.125)

    @pk.workunit
    def increment(self, i: int, j: int):
        self.inp[i][j] += 1.0

    @pk.workunit
    def norm(self, i: int, j: int, acc: pk.Acc[pk.double]):
        acc += abs(self.out[i][j])


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    tile = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    w = Stencil(n, iterations, tile)
    pk.execute(pk.ExecutionSpace.Default, w)
    active = (n - 2 * RADIUS) ** 2
    print(f"stencil_workload: n={n} iterations={iterations} mean stencil+increment "
          f"{w.elapsed / iterations * 1e3:.6f} ms")
    l1 = w.l1 / active
    reference = (iterations + 1) * 2.0
    if abs(l1 - reference) > 1e-8 * reference:
        print(f"stencil_workload: verification FAILED (L1 norm {l1!r}, expected {reference!r})")
        sys.exit(1)
    print(f"stencil_workload: verification PASSED (L1 norm = {l1:.12g}, expected {reference:.12g})")


if __name__ == "__main__":
    main()
