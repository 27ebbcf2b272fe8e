"""Issue 7 s1: a @pk.workload with @pk.main and @pk.callback whose workunits
leave the work index and accumulator unannotated (`def sum(self, i, acc)`);
the callback prints the result, which is captured and checked."""
import contextlib
import io
import sys

import pykokkos as pk


@pk.workload
class SumWorkload:
    def __init__(self, n: int):
        self.n: int = n
        self.values: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.total: float = 0.0
        self.squares: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        self.total = pk.parallel_reduce(self.n, self.sum)
        self.squares = pk.parallel_reduce("squares", self.n, self.sum_squares)

    @pk.workunit
    def init(self, i):
        self.values[i] = i * 0.5

    @pk.workunit
    def sum(self, i, acc):
        acc += self.values[i]

    @pk.workunit
    def sum_squares(self, i, acc):
        acc += self.values[i] * self.values[i]

    @pk.callback
    def results(self):
        print(f"total {self.total} squares {self.squares}")


def main():
    n = 20
    w = SumWorkload(n)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        pk.execute(pk.ExecutionSpace.Default, w)
        w.results()
    total = 0.5 * n * (n - 1) / 2
    squares = 0.25 * (n - 1) * n * (2 * n - 1) / 6
    want = f"total {total} squares {squares}"
    lines = [l for l in buf.getvalue().splitlines() if l.strip()]
    if not lines or any(l != want for l in lines):
        print(f"BAD callback printed {lines!r}, want {want!r}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
