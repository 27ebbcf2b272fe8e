"""PRK transpose: B += A^T, then A += 1, on an order x order matrix (MDRangePolicy).

    pkc build examples/transpose.py
    python3 examples/transpose.py [ORDER [ITERATIONS [TILE]]]   (default 1024, 10, 32)

As in the Parallel Research Kernels: A(i, j) = i * order + j, B = 0; each
iteration does B(i, j) += A(j, i); A(j, i) += 1 in one tiled MDRange kernel.
With one untimed warm-up, after ITERATIONS + 1 sweeps
B(i, j) = (j * order + i) * (ITERATIONS + 1) + (ITERATIONS + 1) * ITERATIONS / 2,
and the summed absolute error must be below 1e-8.
PK_TIMING=batch times ITERATIONS back-to-back launches and one fence, divided
by ITERATIONS, PK_TIMING_REPEATS (default 5) times, and reports the median (the
check counts every sweep): the launches overlap the kernels, so it is the
kernel's throughput time.
"""
# test-args: 256 5 16
import os
import statistics
import sys

import pykokkos as pk


@pk.workunit
def init(i: int, j: int, order: int, A: pk.View2D[pk.double], B: pk.View2D[pk.double]):
    A[i][j] = float(i * order + j)
    B[i][j] = 0.0


@pk.workunit
def transpose(i: int, j: int, A: pk.View2D[pk.double], B: pk.View2D[pk.double]):
    B[i][j] += A[j][i]
    A[j][i] += 1.0


@pk.workunit
def abserr(i: int, j: int, acc: pk.Acc[pk.double], order: int, iterations: int,
           B: pk.View2D[pk.double]):
    addit: float = (iterations + 1.0) * (0.5 * iterations)
    expected: float = float(j * order + i) * (iterations + 1.0) + addit
    acc += abs(B[i][j] - expected)


def main():
    order = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    tile = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    A = pk.View([order, order], pk.double)
    B = pk.View([order, order], pk.double)
    policy = pk.MDRangePolicy([0, 0], [order, order], [tile, tile])
    pk.parallel_for("init", policy, init, order=order, A=A, B=B)

    times, mode, launches = [], "", iterations  # launches: timed sweeps
    if os.environ.get("PK_TIMING") == "batch":
        repeats = int(os.environ.get("PK_TIMING_REPEATS", "5"))
        pk.parallel_for("transpose", policy, transpose, A=A, B=B)  # warm-up
        for _ in range(repeats):
            pk.fence()
            timer = pk.Timer()
            for _ in range(iterations):
                pk.parallel_for("transpose", policy, transpose, A=A, B=B)
            pk.fence()
            times.append(timer.seconds() / iterations)
        mode, launches = f"timing=batch K={iterations} R={repeats} ", iterations * repeats
    else:
        for it in range(iterations + 1):  # iteration 0 is the untimed warm-up
            pk.fence()
            timer = pk.Timer()
            pk.parallel_for("transpose", policy, transpose, A=A, B=B)
            pk.fence()
            if it > 0:
                times.append(timer.seconds())

    median = statistics.median(times)
    nbytes = 4.0 * 8 * order * order  # read A, B; write A, B
    print(f"transpose: order={order} tile={tile} iterations={iterations} "
          f"{mode}kernel median {median * 1e3:.6f} ms ({nbytes / median / 1e9:.2f} GB/s)")

    err = pk.parallel_reduce("abserr", policy, abserr, order=order, iterations=launches, B=B)
    if not err < 1e-8:
        print(f"transpose: verification FAILED (summed absolute error {err!r})")
        sys.exit(1)
    print(f"transpose: verification PASSED (summed absolute error {err:.1e})")


if __name__ == "__main__":
    main()
