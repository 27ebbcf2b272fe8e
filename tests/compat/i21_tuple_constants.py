"""Module constants bound by tuple unpacking (`SOURCED, ABSORBED, LEAKED = 0, 1, 2`,
as transport codes name their tally slots) are compile-time constants in
kernels, like one-name assignments; the right side is evaluated before any
name is bound (`A, B = B, A` swaps), and other unpacking makes globals."""
import sys

import numpy as np
import pykokkos as pk

SOURCED, ABSORBED, LEAKED = 0, 1, 2
A, B = 1, 2
A, B = B, A
SCALE, (LO, HI) = 3.0, (0.25, 0.75)


@pk.workunit
def tally(i: int, counts: pk.View1D[pk.int32], out: pk.View1D[pk.double]):
    pk.atomic_add(counts, [SOURCED], 1)
    if i % 3 == 0:
        pk.atomic_add(counts, [ABSORBED], 1)
    else:
        pk.atomic_add(counts, [LEAKED], 1)
    out[i] = A * 10 + B + SCALE * (HI - LO)


def main():
    n = 10
    counts = pk.View([3], pk.int32)
    out = pk.View([n], pk.double)
    pk.parallel_for(n, tally, counts=counts, out=out)
    bad = []
    if np.asarray(counts).tolist() != [n, 4, 6]:
        bad.append(f"counts={np.asarray(counts).tolist()}")
    if not np.all(np.asarray(out) == 21.0 + 3.0 * 0.5):
        bad.append(f"out={np.asarray(out).tolist()}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
