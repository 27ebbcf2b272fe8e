"""Issue 7 s3: `pk.parallel_reduce(n, lambda i, acc: ...)` inside @pk.main
(sum, conditional count, and a reduction over a RangePolicy)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Stats:
    def __init__(self, n: int):
        self.n: int = n
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.total: float = 0.0
        self.positives: float = 0.0
        self.tail: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        self.total = pk.parallel_reduce(self.n, lambda i, acc: acc + self.x[i])
        self.positives = pk.parallel_reduce(self.n, lambda i, acc: acc + (1.0 if self.x[i] > 0 else 0.0))
        self.tail = pk.parallel_reduce(pk.RangePolicy(self.n // 2, self.n), lambda i, acc: acc + self.x[i] * self.x[i])

    @pk.workunit
    def init(self, i: int):
        self.x[i] = 0.5 * i - 3.0


def main():
    n = 25
    w = Stats(n)
    pk.execute(pk.ExecutionSpace.Default, w)
    xs = 0.5 * np.arange(n) - 3.0
    want = (float(xs.sum()), float((xs > 0).sum()), float((xs[n // 2:] ** 2).sum()))
    got = (w.total, w.positives, w.tail)
    if got != want:
        print(f"BAD {got} want {want}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
