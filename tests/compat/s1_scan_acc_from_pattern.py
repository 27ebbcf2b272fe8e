"""Issue 7 s1: the accumulator and the final-pass flag of a scan workunit are
typed from the pattern: `def scan(i, acc, last_pass, view)` with no annotations."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def scan(i, acc, last_pass, view):
    acc += view[i]
    if last_pass:
        view[i] = acc


@pk.workunit
def exclusive(i, acc, final, src, dst):
    if final:
        dst[i] = acc
    acc += src[i]


def main():
    n = 50
    vals = np.arange(1, n + 1, dtype=np.float64) * 0.5
    v = pk.View([n], pk.double)
    src = pk.View([n], pk.double)
    dst = pk.View([n], pk.double)
    for i in range(n):
        v[i] = vals[i]
        src[i] = vals[i]
    total = pk.parallel_scan(n, scan, view=v)
    total2 = pk.parallel_scan(n, exclusive, src=src, dst=dst)

    incl = np.cumsum(vals)
    excl = incl - vals
    bad = []
    if not np.allclose(np.asarray(v), incl):
        bad.append(f"inclusive={np.asarray(v)[:6].tolist()}...")
    if not np.allclose(np.asarray(dst), excl):
        bad.append(f"exclusive={np.asarray(dst)[:6].tolist()}...")
    if abs(total - incl[-1]) > 1e-9 or abs(total2 - incl[-1]) > 1e-9:
        bad.append(f"totals {total!r} {total2!r}, want {incl[-1]!r}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
