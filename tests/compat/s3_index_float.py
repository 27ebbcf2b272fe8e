"""Issue 7 s3: a work index annotated `float`, as PyKokkos tolerates (the
index converts to double; indexing goes through int())."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def halves(i: float, out: pk.View1D[pk.double]):
    out[int(i)] = i / 2


@pk.workunit
def total(i: float, acc: pk.Acc[pk.double]):
    acc += i * 0.5


def main():
    n = 7
    out = pk.View([n], pk.double)
    pk.parallel_for(n, halves, out=out)
    t = pk.parallel_reduce(n, total)
    if not np.array_equal(np.asarray(out), np.arange(n) / 2) or t != 0.5 * 21:
        print(f"BAD out={np.asarray(out).tolist()} total={t!r}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
