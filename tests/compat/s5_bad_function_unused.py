"""Issue 7 s5: a @pk.function pkc cannot translate (a set display), used only
by a kernel that is never called, does not sink the file: the other kernels
and functions work. Calling the kernel that uses it raises RuntimeError naming
file:line:col of the set display."""
import os
import sys

import numpy as np
import pykokkos as pk


@pk.function
def twice(v: float) -> float:
    return 2.0 * v


@pk.function
def distinct(a: float, b: float) -> int:
    s = {a, b}
    return len(s)


@pk.workunit
def doubled(i: int, x: pk.View1D[pk.double]):
    x[i] = twice(i)


@pk.workunit
def count_distinct(i: int, x: pk.View1D[pk.double], out: pk.View1D[pk.int32]):
    out[i] = distinct(x[i], 3.0)


def where(marker):
    with open(__file__, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            col = line.find(marker)
            if col >= 0 and not line.lstrip().startswith(("#", '"')):
                return f"{os.path.basename(__file__)}:{ln}:{col + 1}"
    raise AssertionError(marker)


def main():
    n = 5
    x = pk.View([n], pk.double)
    pk.parallel_for(n, doubled, x=x)
    if not np.array_equal(np.asarray(x), 2.0 * np.arange(n)):
        print(f"BAD good kernel: x={np.asarray(x).tolist()}")
        sys.exit(1)
    loc = where("{a, b}")
    out = pk.View([n], pk.int32)
    try:
        pk.parallel_for(n, count_distinct, x=x, out=out)
    except RuntimeError as e:
        if loc not in str(e):
            print(f"BAD the error does not name {loc}: {str(e)[:300]!r}")
            sys.exit(1)
    else:
        print("BAD calling the kernel that uses the rejected function raised nothing")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
