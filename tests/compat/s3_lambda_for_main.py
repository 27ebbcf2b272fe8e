"""Issue 7 s3: `pk.parallel_for(n, lambda i: ...)` inside @pk.main; the lambda
uses members (an atomic into a View member)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Histogram:
    def __init__(self, n: int, bins: int):
        self.n: int = n
        self.bins: int = bins
        self.hist: pk.View1D[pk.int32] = pk.View([bins], pk.int32)
        self.data: pk.View1D[pk.int32] = pk.View([n], pk.int32)

    @pk.main
    def run(self):
        pk.parallel_for(self.n, lambda i: pk.atomic_fetch_add(self.data, [i], i * 7 % 5))
        pk.parallel_for(self.n, lambda i: pk.atomic_fetch_add(self.hist, [self.data[i] % self.bins], 1))


def main():
    n, bins = 30, 5
    w = Histogram(n, bins)
    pk.execute(pk.ExecutionSpace.Default, w)
    data = np.arange(n) * 7 % 5
    want = np.bincount(data % bins, minlength=bins).tolist()
    if np.asarray(w.data).tolist() != data.tolist() or np.asarray(w.hist).tolist() != want:
        print(f"BAD data={np.asarray(w.data).tolist()} hist={np.asarray(w.hist).tolist()} want {want}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
