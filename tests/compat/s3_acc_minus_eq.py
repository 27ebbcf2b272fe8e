"""Issue 7 s3: `acc -= x` on a sum accumulator."""
import sys

import pykokkos as pk


@pk.workunit
def balance(i, acc, deposits, withdrawals):
    acc += deposits[i]
    acc -= withdrawals[i]


@pk.workunit
def negsum(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double]):
    acc -= x[i]


def main():
    n = 10
    dep = pk.View([n], pk.double)
    wd = pk.View([n], pk.double)
    for i in range(n):
        dep[i] = 2.0 * i
        wd[i] = 0.5 * i
    r = pk.parallel_reduce(n, balance, deposits=dep, withdrawals=wd)
    s = pk.parallel_reduce(n, negsum, x=dep)
    if r != 1.5 * 45 or s != -90.0:
        print(f"BAD balance={r!r} (want {1.5 * 45}) negsum={s!r} (want -90.0)")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
