"""BabelStream: copy, mul, add, triad and dot, FunctionSty.

    pkc build examples/babelstream.py
    python3 examples/babelstream.py [N [NUMTIMES]]   (default N = 2**22, 20 times)

As in BabelStream: a = 0.1, b = 0.2, c = 0.0, scalar = 0.4; each of NUMTIMES
iterations runs copy (c = a), mul (b = scalar*c), add (c = a + b),
triad (a = b + scalar*c) and dot (sum a*b), each timed on its own. The arrays
are then checked against the gold values obtained by repeating the same
scalar recurrence NUMTIMES times (mean absolute error relative to the gold
value below 100 * machine epsilon) and the dot product against gold_a*gold_b*N.
"""
# test-args: 100000 5
import statistics
import sys

import numpy as np
import pykokkos as pk

START_A, START_B, START_C, START_SCALAR = 0.1, 0.2, 0.0, 0.4


@pk.workunit
def init_arrays(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double],
                c: pk.View1D[pk.double], ia: float, ib: float, ic: float):
    a[i] = ia
    b[i] = ib
    c[i] = ic


@pk.workunit
def copy(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i]


@pk.workunit
def mul(i: int, b: pk.View1D[pk.double], c: pk.View1D[pk.double], scalar: float):
    b[i] = scalar * c[i]


@pk.workunit
def add(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i] + b[i]


@pk.workunit
def triad(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double], c: pk.View1D[pk.double],
          scalar: float):
    a[i] = b[i] + scalar * c[i]


@pk.workunit
def dot(i: int, acc: pk.Acc[pk.double], a: pk.View1D[pk.double], b: pk.View1D[pk.double]):
    acc += a[i] * b[i]


def gold(num_times):
    ga, gb, gc = START_A, START_B, START_C
    for _ in range(num_times):
        gc = ga
        gb = START_SCALAR * gc
        gc = ga + gb
        ga = gb + START_SCALAR * gc
    return ga, gb, gc


def timed(times, key, fn):
    timer = pk.Timer()
    r = fn()
    pk.fence()
    times[key].append(timer.seconds())
    return r


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 22
    num_times = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    scalar = START_SCALAR
    a = pk.View([N], pk.double)
    b = pk.View([N], pk.double)
    c = pk.View([N], pk.double)
    p = pk.RangePolicy(0, N)
    pk.parallel_for("init", p, init_arrays, a=a, b=b, c=c, ia=START_A, ib=START_B, ic=START_C)
    pk.fence()

    times = {k: [] for k in ("copy", "mul", "add", "triad", "dot")}
    total = 0.0
    for _ in range(num_times):
        timed(times, "copy", lambda: pk.parallel_for("copy", p, copy, a=a, c=c))
        timed(times, "mul", lambda: pk.parallel_for("mul", p, mul, b=b, c=c, scalar=scalar))
        timed(times, "add", lambda: pk.parallel_for("add", p, add, a=a, b=b, c=c))
        timed(times, "triad", lambda: pk.parallel_for("triad", p, triad, a=a, b=b, c=c,
                                                      scalar=scalar))
        total = timed(times, "dot", lambda: pk.parallel_reduce("dot", p, dot, a=a, b=b))

    arrays_moved = {"copy": 2, "mul": 2, "add": 3, "triad": 3, "dot": 2}
    for k, ts in times.items():
        t = statistics.median(ts[1:] if len(ts) > 1 else ts)  # BabelStream drops the first
        print(f"babelstream: {k:5s} median {t * 1e3:.6f} ms "
              f"({arrays_moved[k] * 8.0 * N / t / 1e9:.2f} GB/s)")

    ga, gb, gc = gold(num_times)
    gold_sum = ga * gb * N
    eps = np.finfo(np.float64).eps * 100.0
    errs = {name: float(np.abs(np.asarray(v) - g).sum()) / N / abs(g) if g != 0.0
            else float(np.abs(np.asarray(v)).sum()) / N
            for name, v, g in (("a", a, ga), ("b", b, gb), ("c", c, gc))}
    err_sum = abs((total - gold_sum) / gold_sum)
    bad = [f"{k}: relative error {e:.3g}" for k, e in errs.items() if e > eps]
    if err_sum > 1e-8:
        bad.append(f"dot {total!r}, expected {gold_sum!r}")
    if bad:
        print(f"babelstream: verification FAILED ({'; '.join(bad)})")
        sys.exit(1)
    print(f"babelstream: verification PASSED (N={N}, {num_times} times, dot = {total:.12g}, "
          f"relative error {err_sum:.1e})")


if __name__ == "__main__":
    main()
