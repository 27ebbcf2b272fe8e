"""A View named `type` (ExaMiniMD's atom types), as a workunit parameter and
as a bare data member: `type[g] = type[i]` copies an element (tree-sitter reads
that statement as a PEP 695 `type` alias and its right side as a generic
type); `type[i] + 1` reads one."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def copy_types(i: int, n: int, type: pk.View1D[pk.int32], out: pk.View1D[pk.int32]):
    type[i + n] = type[i]
    out[i] = type[i] + 1


@pk.workload
class Ghosts:
    def __init__(self, n: int, types: pk.View1D[pk.int32]):
        self.n: int = n
        self.type: pk.View1D[pk.int32] = types

    @pk.main
    def run(self):
        pk.parallel_for(n, self.copy)

    @pk.workunit
    def copy(self, i: int):
        type[i + 2 * n] = type[i]


def main():
    n = 5
    t = pk.View([3 * n], pk.int32)
    t[:] = np.concatenate([np.arange(n) * 7, np.zeros(2 * n)]).astype(np.int32)
    out = pk.View([n], pk.int32)
    pk.parallel_for(n, copy_types, n=n, type=t, out=out)
    pk.execute(pk.ExecutionSpace.Default, Ghosts(n, t))
    want = np.tile(np.arange(n) * 7, 3)
    bad = []
    if not np.array_equal(np.asarray(t), want):
        bad.append(f"type={np.asarray(t).tolist()}")
    if not np.array_equal(np.asarray(out), np.arange(n) * 7 + 1):
        bad.append(f"out={np.asarray(out).tolist()}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
