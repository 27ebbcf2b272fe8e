"""PRK stencil: a radius-2 star stencil on an n x n grid with MDRangePolicy.

    pkc build examples/stencil.py
    python3 examples/stencil.py [N [ITERATIONS [TILE]]]   (default 1000, 10 iterations, tile 32)

As in the Parallel Research Kernels: in(i, j) = i + j, out = 0; every
iteration adds the star stencil of `in` to `out` over the interior
[R, n-R)^2 (tiled MDRangePolicy), then adds 1 to every point of `in`.
One untimed warm-up iteration is counted, so after ITERATIONS timed ones the
L1 norm of `out` over the interior, divided by the number of interior points,
must be (ITERATIONS + 1) * 2 (the stencil is the gradient sum dx + dy of i + j).
PK_TIMING=batch times ITERATIONS back-to-back stencil launches and one fence,
divided by ITERATIONS, PK_TIMING_REPEATS (default 5) times (one increment after
each batch; the check counts every stencil run) and reports the median: the
launches overlap the kernels, so it is the kernel's throughput time.
"""
# test-args: 200 5 16
import os
import statistics
import sys

import pykokkos as pk

RADIUS = 2


@pk.workunit
def init(i: int, j: int, inp: pk.View2D[pk.double], out: pk.View2D[pk.double]):
    inp[i][j] = float(i + j)
    out[i][j] = 0.0


@pk.workunit
def star2(i: int, j: int, inp: pk.View2D[pk.double], out: pk.View2D[pk.double]):
    # The PRK weights for the radius-2 star: +-1/(2*k*R) at distance k.
    out[i][j] += (inp[i - 2][j] * -0.125 + inp[i - 1][j] * -0.25
                  + inp[i][j - 2] * -0.125 + inp[i][j - 1] * -0.25
                  + inp[i][j + 1] * 0.25 + inp[i][j + 2] * 0.125
                  + inp[i + 1][j] * 0.25 + inp[i + 2][j] * 0.125)


@pk.workunit
def increment(i: int, j: int, inp: pk.View2D[pk.double]):
    inp[i][j] += 1.0


@pk.workunit
def norm(i: int, j: int, acc: pk.Acc[pk.double], out: pk.View2D[pk.double]):
    acc += abs(out[i][j])


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    tile = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    if n <= 2 * RADIUS:
        sys.exit("stencil: N must be larger than twice the radius")
    inp = pk.View([n, n], pk.double)
    out = pk.View([n, n], pk.double)
    full = pk.MDRangePolicy([0, 0], [n, n], [tile, tile])
    inside = pk.MDRangePolicy([RADIUS, RADIUS], [n - RADIUS, n - RADIUS], [tile, tile])
    pk.parallel_for("init", full, init, inp=inp, out=out)

    times, mode, launches = [], "", iterations  # launches: timed stencil runs
    if os.environ.get("PK_TIMING") == "batch":
        repeats = int(os.environ.get("PK_TIMING_REPEATS", "5"))
        pk.parallel_for("stencil", inside, star2, inp=inp, out=out)  # warm-up
        pk.parallel_for("increment", full, increment, inp=inp)
        for _ in range(repeats):
            pk.fence()
            timer = pk.Timer()
            for _ in range(iterations):
                pk.parallel_for("stencil", inside, star2, inp=inp, out=out)
            pk.fence()
            times.append(timer.seconds() / iterations)
            pk.parallel_for("increment", full, increment, inp=inp)
        mode, launches = f"timing=batch K={iterations} R={repeats} ", iterations * repeats
    else:
        for it in range(iterations + 1):  # iteration 0 is the untimed warm-up
            pk.fence()
            timer = pk.Timer()
            pk.parallel_for("stencil", inside, star2, inp=inp, out=out)
            pk.fence()
            if it > 0:
                times.append(timer.seconds())
            pk.parallel_for("increment", full, increment, inp=inp)

    median = statistics.median(times)
    active = (n - 2 * RADIUS) ** 2
    print(f"stencil: n={n} radius={RADIUS} tile={tile} iterations={iterations} "
          f"{mode}kernel median {median * 1e3:.6f} ms ({2 * (4 * RADIUS + 1) * active / median / 1e6:.1f} MFlop/s)")

    l1 = pk.parallel_reduce("norm", inside, norm, out=out) / active
    reference = (launches + 1) * 2.0
    if abs(l1 - reference) > 1e-8 * reference:
        print(f"stencil: verification FAILED (L1 norm {l1!r}, expected {reference!r})")
        sys.exit(1)
    print(f"stencil: verification PASSED (L1 norm = {l1:.12g}, expected {reference:.12g})")


if __name__ == "__main__":
    main()
