"""Issue 7 s1: Views made with pk.array(numpy array) and pk.zeros(shape, dtype=)
passed to unannotated workunits (types followed from those constructors)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def saxpy(i, y, x, a):
    y[i] += a * x[i]


@pk.workunit
def count_pos(i, acc, v):
    if v[i] > 0:
        acc += 1


def main():
    n = 10
    x = pk.array(np.linspace(-1.0, 1.0, n))                 # float64
    y = pk.zeros([n], dtype=pk.float64)
    k = pk.array(np.arange(-4, n - 4, dtype=np.int32))      # int32
    pk.parallel_for(n, saxpy, y=y, x=x, a=2.0)
    pos = pk.parallel_reduce(n, count_pos, v=k)

    want = 2.0 * np.linspace(-1.0, 1.0, n)
    if not np.allclose(np.asarray(y), want, rtol=0, atol=1e-15) or pos != 5:
        print(f"BAD y={np.asarray(y).tolist()} pos={pos!r} (want 5)")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
