"""Issue 21 1.3: a data member assigned twice in __init__ with different
types (`self.scalar: int = 3` then `self.scalar: float = s`; a list then a View)
takes the later annotated type, as PyKokkos does (pkc warns)."""
import sys
from typing import List

import numpy as np
import pykokkos as pk


@pk.workload
class Axpy:
    def __init__(self, n: int, s: float):
        self.n: int = n
        self.scalar: int = 3
        self.scalar: float = s
        self.counts: List[int] = [0] * n
        self.counts: pk.View1D[pk.int32] = pk.View([n], pk.int32)
        self.y: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.axpy)

    @pk.workunit
    def axpy(self, i: int):
        self.y[i] = self.scalar * i
        self.counts[i] = i + 1


def main():
    n = 8
    w = Axpy(n, 0.25)
    pk.execute(pk.ExecutionSpace.Default, w)
    i = np.arange(n)
    bad = []
    if not np.allclose(np.asarray(w.y), 0.25 * i):
        bad.append(f"y={np.asarray(w.y).tolist()}")
    if not np.array_equal(np.asarray(w.counts), i + 1):
        bad.append(f"counts={np.asarray(w.counts).tolist()}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
