"""ExaMiniMD's comm and force workloads keep Python lists as annotated data
members (`self.num_ghost: List[int] = [0] * 6`, `List[List[float]]` tables)
that only their host methods use: they stay in Python, and the workload's
kernels and @pk.main run (they made the shim fail with 'negative shift
count' before)."""
import sys
from typing import List

import numpy as np
import pykokkos as pk


@pk.workload
class Halo:
    def __init__(self, n: int):
        self.n: int = n
        self.num_ghost: List[int] = [0] * 6
        self.stack: List[List[float]] = [[0.0 for i in range(3)] for j in range(3)]
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.total: float = 0.0

    def count_ghosts(self, faces: List[int]) -> int:
        for k in range(6):
            self.num_ghost[k] = faces[k]
            self.stack[k % 3][k // 2] += 1.0
        return sum(self.num_ghost)

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.fill)
        self.total = pk.parallel_reduce(self.n, self.add)

    @pk.workunit
    def fill(self, i: int):
        self.x[i] = 2.0 * i

    @pk.workunit
    def add(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.x[i]


def main():
    w = Halo(7)
    ghosts = w.count_ghosts([1, 2, 3, 4, 5, 6])
    pk.execute(pk.ExecutionSpace.Default, w)
    bad = []
    if ghosts != 21 or w.num_ghost != [1, 2, 3, 4, 5, 6]:
        bad.append(f"ghosts={ghosts} {w.num_ghost}")
    if not np.array_equal(np.asarray(w.x), 2.0 * np.arange(7)) or w.total != 42.0:
        bad.append(f"x={np.asarray(w.x).tolist()} total={w.total}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
