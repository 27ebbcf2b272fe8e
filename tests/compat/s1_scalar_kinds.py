"""Issue 7 s1: unannotated scalar parameters take their type from the Python
value: int -> int64 (values past 2**31 survive), float -> double, bool -> bool."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def fill(i, out, base, step, negate):
    v = base + i * step
    if negate:
        v = -v
    out[i] = v


@pk.workunit
def big(i, out, offset):
    out[i] = offset + i


def main():
    n = 8
    out = pk.View([n], pk.double)
    pk.parallel_for(n, fill, out=out, base=3_000_000_000, step=0.5, negate=True)
    ints = pk.View([n], pk.int64)
    offset = 2 ** 40 + 7
    pk.parallel_for(n, big, out=ints, offset=offset)

    want = -(3_000_000_000 + 0.5 * np.arange(n))
    bad = []
    if not np.array_equal(np.asarray(out), want):
        bad.append(f"out={np.asarray(out).tolist()}")
    if np.asarray(ints).tolist() != [offset + i for i in range(n)]:
        bad.append(f"ints={np.asarray(ints).tolist()}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
