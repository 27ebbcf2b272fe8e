"""One kernel rejected while lowering (a dict in its body) and another
rejected by the checker (`acc *= x` in a sum: its launch names no reducer)
in the same file: the other kernels still build and run (the checker's pass
used to see the first kernel's error as lying outside every entity, after
that kernel was left out, and built nothing). Calling either bad kernel
raises its diagnostic."""
import os
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def total(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double]):
    acc += x[i]


@pk.workunit
def lookup(i: int, x: pk.View1D[pk.double]):
    table = {"a": 1.0, "b": 2.0}
    x[i] = table["a"]


@pk.workunit
def product(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double]):
    acc *= x[i]


@pk.workunit
def fill(i: int, x: pk.View1D[pk.double]):
    x[i] = 2.0 * i


def where(marker):
    """'file.py:LINE:COL' of the first occurrence of marker in this file."""
    with open(__file__, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            col = line.find(marker)
            if col >= 0 and not line.lstrip().startswith(("#", '"')):
                return f"{os.path.basename(__file__)}:{ln}:{col + 1}"
    raise AssertionError(marker)


def main():
    n = 10
    x = pk.View([n], pk.double)
    pk.parallel_for(n, fill, x=x)
    t = pk.parallel_reduce(n, total, x=x)
    if not np.array_equal(np.asarray(x), 2.0 * np.arange(n)) or t != 90.0:
        print(f"BAD good kernels: x={np.asarray(x).tolist()} total={t!r}")
        sys.exit(1)
    for marker, launch in (('{"a": 1.0', lambda: pk.parallel_for(n, lookup, x=x)),
                           ("acc *= x[i]", lambda: pk.parallel_reduce(n, product, x=x))):
        loc = where(marker)
        try:
            launch()   # by name: pkc sees the launch, a sum (no reducer=)
        except RuntimeError as e:
            if loc not in str(e):
                print(f"BAD the error does not name {loc}: {str(e)[:300]!r}")
                sys.exit(1)
        else:
            print(f"BAD calling the kernel of {loc} raised nothing")
            sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
