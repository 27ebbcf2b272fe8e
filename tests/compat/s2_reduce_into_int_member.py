"""Issue 7 s2: a float reduction result (default double accumulator) assigned
to an int member in @pk.main: C++ truncates it."""
import sys

import pykokkos as pk


@pk.workload
class Count:
    def __init__(self, n: int):
        self.n: int = n
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.half_sum: int = 0
        self.positives: int = 0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        self.half_sum = pk.parallel_reduce(self.n, self.halves)
        self.positives = pk.parallel_reduce(self.n, self.count_pos)

    @pk.workunit
    def init(self, i: int):
        self.x[i] = i - 2.0

    @pk.workunit
    def halves(self, i: int, acc: pk.Acc[pk.double]):
        acc += 0.5 * i

    @pk.workunit
    def count_pos(self, i: int, acc: pk.Acc[pk.double]):
        if self.x[i] > 0.0:
            acc += 1.0


def main():
    n = 6                    # halves: 0.5 * 15 = 7.5 -> 7
    w = Count(n)
    pk.execute(pk.ExecutionSpace.Default, w)
    if w.half_sum != 7 or w.positives != 3:
        print(f"BAD half_sum={w.half_sum!r} (want 7) positives={w.positives!r} (want 3)")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
