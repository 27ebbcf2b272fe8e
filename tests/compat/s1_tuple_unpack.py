"""Issue 7 s1: Views and scalars followed through tuple unpacking in host code
(from a tuple display, a function returning a tuple, and a loop target)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def combine(i, out, a, b, alpha):
    out[i] = alpha * a[i] + b[i]


@pk.workunit
def init(i, v, k):
    v[i] = k * i


def make_pair(n):
    return pk.View([n], pk.double), pk.View([n], pk.double)


def main():
    n, k = 10, 2
    a, b = make_pair(n)
    out, ints = pk.View([n], pk.double), pk.View([n], pk.int32)
    for view, factor in ((a, 1), (b, k)):
        pk.parallel_for(n, init, v=view, k=factor)
    pk.parallel_for(n, init, v=ints, k=k + 1)
    alpha, beta = 0.5, 3
    pk.parallel_for(n, combine, out=out, a=a, b=b, alpha=alpha)

    ar = np.arange(n)
    bad = []
    if not np.array_equal(np.asarray(out), 0.5 * ar + 2 * ar):
        bad.append(f"out={np.asarray(out).tolist()}")
    if not np.array_equal(np.asarray(ints), beta * ar):
        bad.append(f"ints={np.asarray(ints).tolist()}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
