"""Issue 7 s3: a work index annotated pk.int64 (for, reduce and scan)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def fill(i: pk.int64, v: pk.View1D[pk.double]):
    v[i] = 2.0 * i


@pk.workunit
def total(i: pk.int64, acc: pk.Acc[pk.double], v: pk.View1D[pk.double]):
    acc += v[i]


@pk.workunit
def prefix(i: pk.int64, acc: pk.Acc[pk.double], last: bool, v: pk.View1D[pk.double]):
    acc += v[i]
    if last:
        v[i] = acc


def main():
    n = 12
    v = pk.View([n], pk.double)
    pk.parallel_for(n, fill, v=v)
    t = pk.parallel_reduce(n, total, v=v)
    s = pk.parallel_scan(n, prefix, v=v)
    want = 2.0 * np.arange(n)
    if t != want.sum() or s != want.sum() or not np.array_equal(np.asarray(v), np.cumsum(want)):
        print(f"BAD total={t!r} scan={s!r} v={np.asarray(v).tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
