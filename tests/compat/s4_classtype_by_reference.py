"""Issue 7 s4 (regression): a classtype object passed to a @pk.function is
passed by reference, as Python passes objects: the callee's changes are seen
by the caller (pkc copied it, a silent wrong result)."""
import sys

import numpy as np
import pykokkos as pk


@pk.classtype
class Box:
    def __init__(self, lo: float, hi: float):
        self.lo: float = lo
        self.hi: float = hi

    @pk.function
    def width(self) -> float:
        return self.hi - self.lo


@pk.function
def grow(b: Box, by: float):
    b.lo -= by
    b.hi += by


@pk.function
def grow_twice(b: Box, by: float):
    grow(b, by)
    grow(b, by)


@pk.workunit
def widths(i: int, out: pk.View1D[pk.double]):
    b: Box = Box(0.0, 1.0)
    grow(b, 0.5 * i)
    grow_twice(b, 1.0)
    out[i] = b.width()


def main():
    n = 6
    out = pk.View([n], pk.double)
    pk.parallel_for(n, widths, out=out)
    want = 1.0 + np.arange(n) + 4.0
    if not np.array_equal(np.asarray(out), want):
        print(f"BAD out={np.asarray(out).tolist()} want {want.tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
