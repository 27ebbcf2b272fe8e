"""Issue 7 s1: Views and scalars followed through local assignments in host
code (aliases, reassignment, values computed from other locals)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def init(i, v, start):
    v[i] = start + i


@pk.workunit
def dot(i, acc, a, b):
    acc += a[i] * b[i]


def main():
    n = 12
    a = pk.View([n], pk.double)
    b = a                       # an alias
    c = pk.View([n], pk.int32)
    start = n // 4              # an int computed from another local
    offset = start * 0.5        # a float
    pk.parallel_for(n, init, v=b, start=offset)
    pk.parallel_for(n, init, v=c, start=start)
    w = c
    r1 = pk.parallel_reduce(n, dot, a=a, b=b)
    r2 = pk.parallel_reduce(n, dot, a=w, b=w)

    fa = 1.5 + np.arange(n)
    ic = 3 + np.arange(n)
    bad = []
    if not np.array_equal(np.asarray(a), fa):
        bad.append(f"a={np.asarray(a).tolist()}")
    if not np.array_equal(np.asarray(c), ic):
        bad.append(f"c={np.asarray(c).tolist()}")
    if r1 != float(fa @ fa) or r2 != float(ic @ ic):
        bad.append(f"dots {r1!r} {r2!r}, want {float(fa @ fa)} {float(ic @ ic)}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
