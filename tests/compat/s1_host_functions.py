"""Issue 7 s1: Views and scalars followed through host function parameters
and return values to the dispatch that types an unannotated workunit."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def ramp(i, v, slope):
    v[i] = slope * i


@pk.workunit
def sumsq(i, acc, v):
    acc += v[i] * v[i]


def make_view(n):
    return pk.View([n], pk.double)


def make_counts(n):
    counts = pk.View([n], dtype=pk.int64)
    return counts


def fill(v, n, slope):
    pk.parallel_for(n, ramp, v=v, slope=slope)


def norm2(v, n):
    return pk.parallel_reduce(n, sumsq, v=v)


def main():
    n = 10
    v = make_view(n)
    fill(v, n, 0.5)
    c = make_counts(n)
    fill(c, n, 3)
    r1 = norm2(v, n)
    r2 = norm2(c, n)

    fv = 0.5 * np.arange(n)
    ic = 3 * np.arange(n)
    bad = []
    if not np.array_equal(np.asarray(v), fv) or r1 != float(fv @ fv):
        bad.append(f"v={np.asarray(v).tolist()} r1={r1!r}")
    if not np.array_equal(np.asarray(c), ic) or r2 != float(ic @ ic):
        bad.append(f"c={np.asarray(c).tolist()} r2={r2!r}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
