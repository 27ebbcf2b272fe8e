"""Issue 21 1.2: a `for` loop whose variable is a local declared earlier
(`t: pk.int32 = 0` ... `for t in range(d):`) assigns that local, as Python
and PyKokkos do: after the loop it holds the last value. A loop whose body
reassigns its variable (an inner loop over the same name, or `j = ...`)
still runs every iteration, as in Python."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def last_index(i: int, d: int, out: pk.View1D[pk.int32], total: pk.View1D[pk.double]):
    t: pk.int32 = 0
    s: float = 0.0
    for t in range(d):
        s += t
    for t in range(i):
        s += 1.0
    out[i] = t
    total[i] = s


@pk.workunit
def nested_same_name(i: int, acc: pk.Acc[pk.double]):
    for j in range(3):
        for j in range(4):
            acc += 1
    for k in range(5):
        acc += 100 * k
        k = 1000
    y: int = 3
    for m in range(2):
        y: int = 4 + m          # annotated again with the same type: Python assigns y
    acc += 10000 * y


@pk.workload
class Steps:
    def __init__(self, n: int):
        self.n: int = n
        self.last: int = 0
        self.acc: float = 0.0

    @pk.main
    def run(self):
        step: int = -1
        for step in range(self.n):
            part: float = pk.parallel_reduce(self.n, self.one)
            self.acc += part
        self.last = step

    @pk.workunit
    def one(self, i: int, acc: pk.Acc[pk.double]):
        acc += 1.0


def main():
    n, d = 6, 4
    out = pk.View([n], pk.int32)
    total = pk.View([n], pk.double)
    pk.parallel_for(n, last_index, d=d, out=out, total=total)
    nested = pk.parallel_reduce(2, nested_same_name)
    w = Steps(n)
    pk.execute(pk.ExecutionSpace.Default, w)

    i = np.arange(n)
    # the second loop leaves t at i - 1, except when it runs no iteration (i == 0): then d - 1
    want_t = np.where(i > 0, i - 1, d - 1)
    want_s = d * (d - 1) / 2 + i
    bad = []
    if not np.array_equal(np.asarray(out), want_t):
        bad.append(f"t={np.asarray(out).tolist()} want {want_t.tolist()}")
    if not np.allclose(np.asarray(total), want_s):
        bad.append(f"s={np.asarray(total).tolist()}")
    if nested != 2 * (12 + 100 * 10 + 10000 * 5):
        bad.append(f"nested loops over one name: {nested} (want {2 * (12 + 1000 + 50000)})")
    if w.last != n - 1 or w.acc != n * n:
        bad.append(f"main: last={w.last} acc={w.acc}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
