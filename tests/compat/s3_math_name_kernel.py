"""Issue 7 s3: a workunit named like a math function (`sin`, `cos`) and a
@pk.function named `exp`, each calling the math function of that name."""
import math
import sys

import numpy as np
import pykokkos as pk


@pk.function
def exp(v: float) -> float:
    return math.exp(v) - 1.0


@pk.workunit
def sin(i, out, x):
    out[i] = math.sin(x[i]) + exp(x[i])


@pk.workunit
def cos(i, acc, x):
    acc += math.cos(x[i])


def main():
    n = 8
    x = pk.View([n], pk.double)
    for i in range(n):
        x[i] = 0.3 * i
    out = pk.View([n], pk.double)
    pk.parallel_for(n, sin, out=out, x=x)
    c = pk.parallel_reduce(n, cos, x=x)
    xs = 0.3 * np.arange(n)
    want = np.sin(xs) + np.expm1(xs)
    if not np.allclose(np.asarray(out), want, rtol=1e-13, atol=1e-13) or abs(c - np.cos(xs).sum()) > 1e-12:
        print(f"BAD out={np.asarray(out).tolist()} cos={c!r} (want {np.cos(xs).sum()})")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
