"""Issue 7 s1: a @pk.functor (annotated members) whose workunits leave the
work index and the accumulator unannotated."""
import sys

import numpy as np
import pykokkos as pk


@pk.functor
class Stats:
    def __init__(self, n: int, x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
        self.n: int = n
        self.x: pk.View1D[pk.double] = x
        self.y: pk.View1D[pk.double] = y

    @pk.workunit
    def init(self, i):
        self.x[i] = i + 1.0
        self.y[i] = 2.0 * i

    @pk.workunit
    def dot(self, i, acc):
        acc += self.x[i] * self.y[i]

    @pk.workunit
    def prefix(self, i, acc, last):
        acc += self.x[i]
        if last:
            self.y[i] = acc


def main():
    n = 15
    f = Stats(n, pk.View([n], pk.double), pk.View([n], pk.double))
    pk.parallel_for(n, f.init)
    d = pk.parallel_reduce(n, f.dot)
    t = pk.parallel_scan(n, f.prefix)

    x = np.arange(n) + 1.0
    want_d = float(x @ (2.0 * np.arange(n)))
    if d != want_d or t != x.sum() or not np.array_equal(np.asarray(f.y), np.cumsum(x)):
        print(f"BAD dot={d!r} (want {want_d}) scan total={t!r} y={np.asarray(f.y).tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
