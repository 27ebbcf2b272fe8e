"""Issue 7 s2: Python semantics kept for `//`, `%`, `/` and `**` in
unannotated kernels (pkc deliberately differs from C++ here)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def arith(i, a, b, fdiv, fmod, tdiv, pw):
    x = a[i]
    y = b[i]
    fdiv[i] = x // y
    fmod[i] = x % y
    tdiv[i] = x / y
    pw[i] = y ** 2


def main():
    av = [7, -7, 7, -7, 9, -1]
    bv = [2, 2, -2, -2, 3, 4]
    n = len(av)
    a = pk.View([n], pk.int64)
    b = pk.View([n], pk.int64)
    for i in range(n):
        a[i] = av[i]
        b[i] = bv[i]
    fdiv = pk.View([n], pk.int64)
    fmod = pk.View([n], pk.int64)
    tdiv = pk.View([n], pk.double)
    pw = pk.View([n], pk.int64)
    pk.parallel_for(n, arith, a=a, b=b, fdiv=fdiv, fmod=fmod, tdiv=tdiv, pw=pw)
    got = (np.asarray(fdiv).tolist(), np.asarray(fmod).tolist(),
           np.asarray(tdiv).tolist(), np.asarray(pw).tolist())
    want = ([x // y for x, y in zip(av, bv)], [x % y for x, y in zip(av, bv)],
            [x / y for x, y in zip(av, bv)], [y ** 2 for y in bv])
    if got != want:
        print(f"BAD {got} want {want}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
