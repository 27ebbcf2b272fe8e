"""Issue 7 s1: an annotation that is present is used even where the value
comes from somewhere inference cannot see (`M: int = values[1]`), in host code
and on a workunit parameter (a Python int passed to a `float` parameter)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def fill(i, out, M, scale):
    for j in range(M):
        out[i] += scale * j


@pk.workunit
def halve(i, out, d: float):
    out[i] = out[i] / d + i / d


def main():
    values = [6, 4]
    params = {"scale": 0.5}
    N: int = values[0]
    M: int = values[1]
    scale: float = params["scale"]
    out: pk.View1D[pk.double] = pk.View([N], pk.double)
    pk.parallel_for(N, fill, out=out, M=M, scale=scale)
    pk.parallel_for(N, halve, out=out, d=4)   # int argument, float parameter

    ar = np.arange(N)
    want = (0.5 * sum(range(4))) / 4.0 + ar / 4.0
    if not np.array_equal(np.asarray(out), want):
        print(f"BAD out={np.asarray(out).tolist()} want {want.tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
