"""Issue 7 s2: a float stored into an int member: a classtype member inside a
kernel, and a workload member inside @pk.main (C++ truncation)."""
import sys

import numpy as np
import pykokkos as pk


@pk.classtype
class Cell:
    def __init__(self, x: float):
        self.index: int = 0
        self.x: float = x

    @pk.function
    def locate(self, width: float):
        self.index = self.x / width


@pk.workunit
def cells(i: int, x: pk.View1D[pk.double], out: pk.View1D[pk.int64]):
    c: Cell = Cell(x[i])
    c.locate(0.75)
    out[i] = c.index


@pk.workload
class Mean:
    def __init__(self, n: int):
        self.n: int = n
        self.total: float = 0.0
        self.rounded: int = 0

    @pk.main
    def run(self):
        self.total = pk.parallel_reduce(self.n, self.add)
        self.rounded = self.total / 4.0

    @pk.workunit
    def add(self, i: int, acc: pk.Acc[pk.double]):
        acc += 0.5 * i + 0.125


def main():
    n = 9
    x = pk.View([n], pk.double)
    for i in range(n):
        x[i] = 0.6 * i + 0.1
    out = pk.View([n], pk.int64)
    pk.parallel_for(n, cells, x=x, out=out)
    w = Mean(n)
    pk.execute(pk.ExecutionSpace.Default, w)

    want = np.trunc((0.6 * np.arange(n) + 0.1) / 0.75).astype(np.int64).tolist()
    total = 0.5 * n * (n - 1) / 2 + 0.125 * n
    bad = []
    if np.asarray(out).tolist() != want:
        bad.append(f"cells {np.asarray(out).tolist()} want {want}")
    if w.total != total or w.rounded != int(total / 4.0):
        bad.append(f"total {w.total!r} rounded {w.rounded!r}, want {total} {int(total / 4.0)}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
