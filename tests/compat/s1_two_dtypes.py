"""Issue 7 s1: one unannotated workunit called with float64, int32 and float32
Views from different places: several specializations of one workunit coexist."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def scale(i, x, a):
    x[i] = x[i] * a


@pk.workunit
def total(i, acc, x):
    acc += x[i]


def run_double(n):
    x = pk.View([n], pk.double)
    for i in range(n):
        x[i] = i + 0.5
    pk.parallel_for(n, scale, x=x, a=2.5)
    return np.asarray(x).copy(), pk.parallel_reduce(n, total, x=x)


def run_int(n):
    x = pk.View([n], pk.int32)
    for i in range(n):
        x[i] = i
    pk.parallel_for(n, scale, x=x, a=3)
    return np.asarray(x).copy(), pk.parallel_reduce(n, total, x=x)


def run_float(n):
    x = pk.View([n], pk.float32)
    for i in range(n):
        x[i] = 2.0
    pk.parallel_for(n, scale, x=x, a=0.25)
    return np.asarray(x).copy(), pk.parallel_reduce(n, total, x=x)


def main():
    n = 20
    d, dsum = run_double(n)
    k, ksum = run_int(n)
    f, fsum = run_float(n)
    d2, dsum2 = run_double(n)   # the first specialization is still there
    ar = np.arange(n)
    bad = []
    if not np.array_equal(d, (ar + 0.5) * 2.5) or dsum != float(((ar + 0.5) * 2.5).sum()):
        bad.append(f"float64 {d[:4].tolist()} sum {dsum!r}")
    if k.dtype != np.int32 or not np.array_equal(k, ar * 3) or ksum != float((ar * 3).sum()):
        bad.append(f"int32 {k.dtype} {k[:4].tolist()} sum {ksum!r}")
    if f.dtype != np.float32 or not np.array_equal(f, np.full(n, 0.5, np.float32)) or fsum != 0.5 * n:
        bad.append(f"float32 {f.dtype} {f[:4].tolist()} sum {fsum!r}")
    if not np.array_equal(d, d2) or dsum != dsum2:
        bad.append(f"float64 again {d2[:4].tolist()} sum {dsum2!r}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
