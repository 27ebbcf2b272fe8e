"""Kokkos benchmark gups as a workload: random atomic XOR updates of a table.

    pkc build examples/gups_workload.py
    python3 examples/gups_workload.py [TABLE [UPDATES [NREPEAT]]]   (default 2^24, 2^24, 10 repeats)

@pk.main fills the table, draws the update positions from a
pk.Random_XorShift64_Pool member, runs a warm-up and NREPEAT timed passes of
pk.atomic_fetch_xor(table, [index], datum), datum = -1. Each entry must then
equal its start value XOR datum iff it was hit an odd number of times in
all (1 + NREPEAT) passes: checked exactly with numpy's bincount.
"""
# test-args: 1000 5000 2
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Gups:
    def __init__(self, T: int, U: int, nrepeat: int):
        self.T: int = T
        self.U: int = U
        self.nrepeat: int = nrepeat
        self.datum: pk.int64 = -1
        self.seconds: float = 0.0
        self.table: pk.View1D[pk.int64] = pk.View([T], pk.int64)
        self.indices: pk.View1D[pk.int64] = pk.View([U], pk.int64)
        self.pool: pk.Random_XorShift64_Pool = pk.Random_XorShift64_Pool(20210613)

    @pk.main
    def run(self):
        pk.parallel_for(self.T, self.init_table)
        pk.parallel_for(self.U, self.random_indices)
        pk.parallel_for(self.U, self.gups)  # warm-up
        pk.fence()
        timer = pk.Timer()
        for r in range(self.nrepeat):
            pk.parallel_for(self.U, self.gups)
        pk.fence()
        self.seconds = timer.seconds()

    @pk.workunit
    def init_table(self, i: int):
        self.table[i] = i

    @pk.workunit
    def random_indices(self, i: int):
        state = self.pool.get_state()
        r: float = state.drand()
        k: int = int(r * self.T)
        if k >= self.T:
            k = self.T - 1
        self.indices[i] = k
        self.pool.free_state(state)

    @pk.workunit
    def gups(self, i: int):
        pk.atomic_fetch_xor(self.table, [self.indices[i]], self.datum)


def main():
    T = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 24
    U = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 24
    nrepeat = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    w = Gups(T, U, nrepeat)
    pk.execute(pk.ExecutionSpace.Default, w)
    per = w.seconds / nrepeat
    print(f"gups_workload: table={T} updates={U} nrepeat={nrepeat} mean kernel {per * 1e3:.6f} ms "
          f"({1e-9 * U / max(per, 1e-12):.4f} GUP/s)")

    idx = w.indices.to_numpy()
    if idx.min() < 0 or idx.max() >= T:
        print(f"gups_workload: verification FAILED (random index out of range: {idx.min()}..{idx.max()})")
        sys.exit(1)
    flips = (np.bincount(idx, minlength=T) * (1 + nrepeat)) % 2
    expect = np.arange(T, dtype=np.int64) ^ np.where(flips == 1, np.int64(-1), np.int64(0))
    got = w.table.to_numpy()
    bad = np.flatnonzero(got != expect)
    if bad.size:
        print(f"gups_workload: verification FAILED ({bad.size} of {T} table entries wrong, "
              f"first at {bad[0]})")
        sys.exit(1)
    print(f"gups_workload: verification PASSED ({int(flips.sum())} entries flipped an odd number "
          f"of times, {len(np.unique(idx))} distinct indices)")


if __name__ == "__main__":
    main()
