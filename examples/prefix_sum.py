"""Exclusive and inclusive prefix sums with parallel_scan.

    pkc build examples/prefix_sum.py
    python3 examples/prefix_sum.py [N]      (default N = 1,000,000)

The exclusive scan runs over int64 data (exact comparison), the inclusive
one over doubles. Both are checked against numpy.cumsum, and the total that
parallel_scan returns against the sum of the input.
"""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def exclusive_scan(i: int, acc: pk.Acc[pk.int64], final: bool,
                   x: pk.View1D[pk.int64], out: pk.View1D[pk.int64]):
    if final:
        out[i] = acc
    acc += x[i]


@pk.workunit
def inclusive_scan(i: int, acc: pk.Acc[pk.double], final: bool,
                   x: pk.View1D[pk.double], out: pk.View1D[pk.double]):
    acc += x[i]
    if final:
        out[i] = acc


def check(name, ok, detail):
    if not ok:
        print(f"prefix_sum: verification FAILED ({name}: {detail})")
        sys.exit(1)


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    rng = np.random.default_rng(3)
    xi_np = rng.integers(-1000, 1000, N, dtype=np.int64)
    xd_np = rng.uniform(0.0, 1.0, N)

    xi = pk.View([N], pk.int64)
    outi = pk.View([N], pk.int64)
    xd = pk.View([N], pk.double)
    outd = pk.View([N], pk.double)
    np.asarray(xi)[:] = xi_np
    np.asarray(xd)[:] = xd_np

    total_i = pk.parallel_scan(N, exclusive_scan, x=xi, out=outi)
    total_d = pk.parallel_scan(pk.RangePolicy(0, N), inclusive_scan, x=xd, out=outd)

    expect_i = np.concatenate(([0], np.cumsum(xi_np)[:-1]))
    got_i = np.asarray(outi)
    bad = np.flatnonzero(got_i != expect_i)
    check("exclusive int64", bad.size == 0,
          f"{bad.size} wrong, first at {bad[:1].tolist()}")
    check("exclusive total", int(total_i) == int(xi_np.sum()),
          f"returned {total_i}, expected {int(xi_np.sum())}")

    expect_d = np.cumsum(xd_np)
    got_d = np.asarray(outd)
    check("inclusive float64", np.allclose(got_d, expect_d, rtol=1e-10, atol=1e-9),
          f"max error {float(np.max(np.abs(got_d - expect_d)))}")
    check("inclusive total", abs(float(total_d) - float(expect_d[-1])) <= 1e-9 * expect_d[-1],
          f"returned {total_d}, expected {float(expect_d[-1])}")

    print(f"prefix_sum: verification PASSED (N={N}, int64 total {int(total_i)}, "
          f"float64 total {float(total_d):.10g})")


if __name__ == "__main__":
    main()
