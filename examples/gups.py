"""Kokkos benchmark gups (FunctionSty): random atomic XOR updates of a table.

    pkc build examples/gups.py
    python3 examples/gups.py [TABLE [UPDATES [NREPEAT]]]   (default 2^24, 2^24, 10 repeats)

Random table positions come from a pk.Random_XorShift64_Pool in a kernel;
every update is pk.atomic_fetch_xor(table, [index], datum) with datum = -1
(all bits flip). After a warm-up and NREPEAT timed passes, each entry has
been flipped (1 + NREPEAT) * count times, count its number of indices: the
table is checked exactly against that (numpy bincount), as GUPS is verified
by applying the updates again. Prints the median kernel time and GUP/s.
PK_TIMING=batch times NREPEAT back-to-back launches and one fence, divided by
NREPEAT, PK_TIMING_REPEATS (default 5) times, and reports the median (the check
counts every pass): the launches overlap the kernels, so it is the kernel's
throughput time.
"""
# test-args: 1000 5000 2
import os
import statistics
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def init_table(i: int, table: pk.View1D[pk.int64]):
    table[i] = i


@pk.workunit
def random_indices(i: int, table_size: int, indices: pk.View1D[pk.int64],
                   pool: pk.Random_XorShift64_Pool):
    state = pool.get_state()
    r: float = state.drand()
    k: int = int(r * table_size)
    if k >= table_size:
        k = table_size - 1
    indices[i] = k
    pool.free_state(state)


@pk.workunit
def gups(i: int, table: pk.View1D[pk.int64], indices: pk.View1D[pk.int64], datum: pk.int64):
    pk.atomic_fetch_xor(table, [indices[i]], datum)


def main():
    T = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 24
    U = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 24
    nrepeat = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    datum = -1

    table = pk.View([T], pk.int64)
    indices = pk.View([U], pk.int64)
    pool = pk.Random_XorShift64_Pool(20210613)
    pk.parallel_for(T, init_table, table=table)
    pk.parallel_for(U, random_indices, table_size=T, indices=indices, pool=pool)

    pk.parallel_for("gups", U, gups, table=table, indices=indices, datum=datum)  # warm-up
    pk.fence()
    times, mode, passes = [], "", nrepeat  # passes: timed kernel runs
    if os.environ.get("PK_TIMING") == "batch":
        repeats = int(os.environ.get("PK_TIMING_REPEATS", "5"))
        for _ in range(repeats):
            timer = pk.Timer()
            for _ in range(nrepeat):
                pk.parallel_for("gups", U, gups, table=table, indices=indices, datum=datum)
            pk.fence()
            times.append(timer.seconds() / nrepeat)
        mode, passes = f"timing=batch K={nrepeat} R={repeats} ", nrepeat * repeats
    else:
        for _ in range(nrepeat):
            timer = pk.Timer()
            pk.parallel_for("gups", U, gups, table=table, indices=indices, datum=datum)
            pk.fence()
            times.append(timer.seconds())
    median = statistics.median(times)
    print(f"gups: table={T} updates={U} nrepeat={nrepeat} {mode}median kernel {median * 1e3:.6f} ms "
          f"({1e-9 * U / median:.4f} GUP/s)")

    idx = indices.to_numpy()
    if idx.min() < 0 or idx.max() >= T:
        print(f"gups: verification FAILED (random index out of range: {idx.min()}..{idx.max()})")
        sys.exit(1)
    flips = (np.bincount(idx, minlength=T) * (1 + passes)) % 2
    expect = np.arange(T, dtype=np.int64) ^ np.where(flips == 1, np.int64(datum), np.int64(0))
    got = table.to_numpy()
    bad = np.flatnonzero(got != expect)
    if bad.size:
        print(f"gups: verification FAILED ({bad.size} of {T} table entries wrong, first at {bad[0]})")
        sys.exit(1)
    print(f"gups: verification PASSED ({int(flips.sum())} entries flipped an odd number of times, "
          f"{len(np.unique(idx))} distinct indices)")


if __name__ == "__main__":
    main()
