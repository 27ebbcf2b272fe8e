"""Issue 7 s2: a float stored into an int local, as C++ (and so PyKokkos)
converts it: truncation toward zero."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def bucket(i, x, out, width):
    b: int = x[i] / width          # float into an annotated int local
    k = 0                          # an int local ...
    k = x[i] * 2.0                 # ... assigned a float
    out[i] = b * 100 + k


def main():
    n = 8
    x = pk.View([n], pk.double)
    for i in range(n):
        x[i] = 0.7 * i + 0.2
    out = pk.View([n], pk.int64)
    pk.parallel_for(n, bucket, x=x, out=out, width=1.5)

    xs = 0.7 * np.arange(n) + 0.2
    want = np.trunc(xs / 1.5).astype(np.int64) * 100 + np.trunc(xs * 2.0).astype(np.int64)
    if np.asarray(out).tolist() != want.tolist():
        print(f"BAD out={np.asarray(out).tolist()} want {want.tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
