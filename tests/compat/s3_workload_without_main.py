"""Issue 7 s3: a @pk.workload class without @pk.main behaves as a functor:
its workunits are dispatched from host code."""
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Saxpy:
    def __init__(self, n: int, a: float):
        self.n: int = n
        self.a: float = a
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.y: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.workunit
    def init(self, i: int):
        self.x[i] = i
        self.y[i] = 1.0

    @pk.workunit
    def saxpy(self, i: int):
        self.y[i] += self.a * self.x[i]

    @pk.workunit
    def dot(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.x[i] * self.y[i]


def main():
    n = 10
    w = Saxpy(n, 3.0)
    pk.parallel_for(n, w.init)
    pk.parallel_for("saxpy", pk.RangePolicy(0, n), w.saxpy)
    d = pk.parallel_reduce(n, w.dot)
    x = np.arange(n, dtype=float)
    y = 1.0 + 3.0 * x
    if not np.array_equal(np.asarray(w.y), y) or d != float(x @ y):
        print(f"BAD y={np.asarray(w.y).tolist()} dot={d!r} (want {float(x @ y)})")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
