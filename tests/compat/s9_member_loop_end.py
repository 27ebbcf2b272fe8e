"""Issue 21 item 1.8 (regression): a workload member named `<loopvar>_end`
(the MD mini-app has `i_end`) next to `for i in range(...)` with a bound pkc
evaluates once: the loop-bound temporary must not shadow the member."""
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Sums:
    def __init__(self, n):
        self.n: int = n
        self.i_end: int = 3
        self.j_end: float = 0.5
        self.counts: pk.View1D[pk.int64] = pk.View([n], pk.int64)
        self.out: pk.View1D[pk.double] = pk.View([n], pk.double)
        for k in range(n):
            self.counts[k] = k + 2

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.work)

    @pk.workunit
    def work(self, k: int):
        s: float = 0.0
        for i in range(self.counts[k]):
            s += self.i_end
        for j in range(self.counts[k] - 1):
            s += self.j_end
        self.out[k] = s


def main():
    n = 7
    w = Sums(n)
    pk.execute(pk.ExecutionSpace.Default, w)
    counts = np.arange(n) + 2
    want = counts * 3.0 + (counts - 1) * 0.5
    got = np.asarray(w.out)
    if not np.array_equal(got, want):
        print(f"BAD out={got.tolist()} want {want.tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
