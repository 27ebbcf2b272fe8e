"""Issue 7 s5: a @pk.functor pkc cannot translate (a list comprehension in one
of its workunits) does not sink the other entities of the file: another
functor and a FunctionSty kernel build and run; calling the rejected functor's
workunit raises RuntimeError with file:line:col of the comprehension. (A
functor is one entity, as in PyKokkos, which translates it as a whole.)"""
import os
import sys

import numpy as np
import pykokkos as pk


@pk.functor
class Bad:
    def __init__(self, n: int, x: pk.View1D[pk.double]):
        self.n: int = n
        self.x: pk.View1D[pk.double] = x

    @pk.workunit
    def squares(self, i: int):
        vals = [self.x[k] * self.x[k] for k in range(self.n)]
        self.x[i] = vals[i]


@pk.functor
class Good:
    def __init__(self, x: pk.View1D[pk.double]):
        self.x: pk.View1D[pk.double] = x

    @pk.workunit
    def init(self, i: int):
        self.x[i] = i + 1.0

    @pk.workunit
    def product(self, i: int, acc: pk.Prod[pk.double]):
        acc *= self.x[i]


@pk.workunit
def total(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double]):
    acc += x[i]


def where(marker):
    """'file.py:LINE:COL' of the first occurrence of marker in this file."""
    with open(__file__, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            col = line.find(marker)
            if col >= 0 and not line.lstrip().startswith(("#", '"')):
                return f"{os.path.basename(__file__)}:{ln}:{col + 1}"
    raise AssertionError(marker)


def main():
    n = 6
    x = pk.View([n], pk.double)
    good = Good(x)
    pk.parallel_for(n, good.init)
    p = pk.parallel_reduce(n, good.product)
    t = pk.parallel_reduce(n, total, x=x)
    if not np.array_equal(np.asarray(x), np.arange(1.0, n + 1)) or p != 720.0 or t != 21.0:
        print(f"BAD good kernels: x={np.asarray(x).tolist()} product={p!r} total={t!r}")
        sys.exit(1)
    loc = where("[self.x[k] * self.x[k] for")
    try:
        pk.parallel_for(n, Bad(n, x).squares)
    except RuntimeError as e:
        if loc not in str(e):
            print(f"BAD the error does not name {loc}: {str(e)[:300]!r}")
            sys.exit(1)
    else:
        print("BAD calling the rejected kernel raised nothing")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
