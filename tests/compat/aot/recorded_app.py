"""Issue 7 s1 (AOT): unannotated workunits typed only at run time, called with
two View dtypes and two scalar kinds from a helper function. tests/run_tests.py
runs it three times: recording its signatures (PKC_RECORD_SIGNATURES=1), after
`pkc build` of the file (which builds every recorded signature), and then with
pkc removed from PATH: the last run must compile nothing."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def axpy(i, y, x, a):
    y[i] += a * x[i]


@pk.workunit
def total(i, acc, y):
    acc += y[i]


def run(dtype, a):
    n = 9
    x = pk.View([n], dtype)
    y = pk.View([n], dtype)
    x[:] = np.arange(n)
    y[:] = 1
    pk.parallel_for(n, axpy, y=y, x=x, a=a)
    s = pk.parallel_reduce(n, total, y=y)
    want = np.ones(n) + a * np.arange(n)
    return np.allclose(np.asarray(y), want) and abs(s - want.sum()) < 1e-9


def main():
    ok = run(pk.float64, 0.5) and run(pk.int32, 3)
    print("OK" if ok else "BAD results differ from numpy")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
