"""Issue 7 s3: the other soft keywords as names: Views called `match` and
`case`, and `_` as a View parameter and as a loop variable."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def compare(i, match, case, _):
    match[i] = 0
    if case[i] == _[i]:
        match[i] = 1


@pk.workunit
def repeat(i: int, case: pk.View1D[pk.double], times: int):
    for _ in range(times):
        case[i] += 1.0


def main():
    n = 8
    match = pk.View([n], pk.int32)
    case = pk.View([n], pk.double)
    _ = pk.View([n], pk.double)
    for i in range(n):
        case[i] = i % 3
        _[i] = i % 2
    pk.parallel_for(n, compare, match=match, case=case, _=_)
    pk.parallel_for(n, repeat, case=case, times=3)
    ar = np.arange(n)
    want = ((ar % 3) == (ar % 2)).astype(int).tolist()
    if np.asarray(match).tolist() != want or not np.array_equal(np.asarray(case), ar % 3 + 3.0):
        print(f"BAD match={np.asarray(match).tolist()} want {want} case={np.asarray(case).tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
