"""Issue 7 s3: a work index annotated pk.int32 (FunctionSty and functor)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def fill(i: pk.int32, v: pk.View1D[pk.int32]):
    v[i] = i * i


@pk.functor
class Sum:
    def __init__(self, v: pk.View1D[pk.int32]):
        self.v: pk.View1D[pk.int32] = v

    @pk.workunit
    def total(self, i: pk.int32, acc: pk.Acc[pk.double]):
        acc += self.v[i]


def main():
    n = 9
    v = pk.View([n], pk.int32)
    pk.parallel_for(n, fill, v=v)
    t = pk.parallel_reduce(n, Sum(v).total)
    want = np.arange(n) ** 2
    if np.asarray(v).tolist() != want.tolist() or t != float(want.sum()):
        print(f"BAD v={np.asarray(v).tolist()} total={t!r}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
