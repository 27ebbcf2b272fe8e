"""Issue 7 s3: pk.MaxLoc / pk.MinLoc reducers. The accumulator has `.val` and
`.loc` (as Kokkos' ValLocScalar); the result of parallel_reduce carries the
value and the location of the extremum."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def argmax(i: int, acc: pk.MaxLoc[pk.double], x: pk.View1D[pk.double]):
    if x[i] > acc.val:
        acc.val = x[i]
        acc.loc = i


@pk.workunit
def argmin(i: int, acc: pk.MinLoc[pk.double], x: pk.View1D[pk.double]):
    if x[i] < acc.val:
        acc.val = x[i]
        acc.loc = i


def val_loc(r):
    """(value, location) of a MaxLoc/MinLoc result: `.val`/`.loc` or a pair."""
    if hasattr(r, "val") and hasattr(r, "loc"):
        return float(r.val), int(r.loc)
    v, l = r
    return float(v), int(l)


def main():
    n = 37
    xs = np.sin(np.arange(n) * 1.7) * (1.0 + np.arange(n) * 0.1)   # distinct values
    x = pk.View([n], pk.double)
    for i in range(n):
        x[i] = xs[i]
    mx = val_loc(pk.parallel_reduce(n, argmax, x=x))
    mn = val_loc(pk.parallel_reduce(n, argmin, x=x))
    want_mx = (float(xs.max()), int(xs.argmax()))
    want_mn = (float(xs.min()), int(xs.argmin()))
    if mx != want_mx or mn != want_mn:
        print(f"BAD maxloc={mx} (want {want_mx}) minloc={mn} (want {want_mn})")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
