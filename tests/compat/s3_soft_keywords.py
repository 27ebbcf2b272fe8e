"""Issue 7 s3: a View called `type` (a soft keyword: `type[i] = ...` must not be
read as a PEP 695 type alias), in a FunctionSty parameter and a functor member."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def classify(i, type, x):
    type[i] = 0
    if x[i] > 0.0:
        type[i] = 1
    if x[i] > 2.0:
        type[i] = 2


@pk.functor
class Count:
    def __init__(self, type: pk.View1D[pk.int32]):
        self.type: pk.View1D[pk.int32] = type

    @pk.workunit
    def count(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.type[i]


def main():
    n = 10
    x = pk.View([n], pk.double)
    for i in range(n):
        x[i] = 0.75 * i - 1.0
    type = pk.View([n], pk.int32)
    pk.parallel_for(n, classify, type=type, x=x)
    total = pk.parallel_reduce(n, Count(type).count)
    xs = 0.75 * np.arange(n) - 1.0
    want = (xs > 0).astype(int) + (xs > 2.0).astype(int)
    if np.asarray(type).tolist() != want.tolist() or total != float(want.sum()):
        print(f"BAD type={np.asarray(type).tolist()} want {want.tolist()} total={total!r}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
