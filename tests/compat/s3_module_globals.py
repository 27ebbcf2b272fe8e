"""Issue 7 s3: module globals that are not compile-time constants, used in a
kernel and in @pk.main (captured at call time: a global changed between two
calls gives the new value)."""
import os
import sys

import numpy as np
import pykokkos as pk

SCALE = float(os.environ.get("COMPAT_SCALE_UNSET_VAR", "2.5"))
OFFSET = len(sys.argv) + 2            # 3 when run without arguments
N_ITEMS = int("12")


@pk.workunit
def affine(i, out):
    out[i] = SCALE * i + OFFSET


@pk.workload
class Repeat:
    def __init__(self, n: int):
        self.n: int = n
        self.partial: float = 0.0
        self.total: float = 0.0

    @pk.main
    def run(self):
        for r in range(OFFSET):
            self.partial = pk.parallel_reduce(self.n, self.add)
            self.total += self.partial * SCALE

    @pk.workunit
    def add(self, i: int, acc: pk.Acc[pk.double]):
        acc += i


def main():
    global SCALE
    out = pk.View([N_ITEMS], pk.double)
    pk.parallel_for(N_ITEMS, affine, out=out)
    first = np.asarray(out).copy()
    SCALE = 4.0
    pk.parallel_for(N_ITEMS, affine, out=out)
    second = np.asarray(out).copy()
    w = Repeat(N_ITEMS)
    pk.execute(pk.ExecutionSpace.Default, w)

    ar = np.arange(N_ITEMS)
    want_total = 3 * (N_ITEMS * (N_ITEMS - 1) / 2) * 4.0
    bad = []
    if not np.array_equal(first, 2.5 * ar + 3):
        bad.append(f"first={first.tolist()}")
    if not np.array_equal(second, 4.0 * ar + 3):
        bad.append(f"after SCALE=4.0: {second.tolist()}")
    if w.total != want_total:
        bad.append(f"main total={w.total!r} (want {want_total})")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
