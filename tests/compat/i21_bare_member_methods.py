"""Issue 21 1.1: methods called on bare data-member names in workunits, as
MCDC-TNT's kernels write them: `pool.get_state()` / `pool.free_state(state)`
on a random-pool member and `p_pos.extent(0)` on a View member. Checked:
the draws lie in [0, 1) with mean 0.5 (20,000 draws: within 0.01), the
extent is the View's."""
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Draw:
    def __init__(self, n: int, seed: int):
        self.num_part: int = n
        self.pool: pk.Random_XorShift64_Pool = pk.Random_XorShift64_Pool(seed)
        self.p_pos: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.p_len: pk.View1D[pk.int64] = pk.View([n], pk.int64)

    @pk.main
    def run(self):
        pk.parallel_for(num_part, self.sample)

    @pk.workunit
    def sample(self, i: int):
        state = pool.get_state()
        p_pos[i] = state.drand()
        pool.free_state(state)
        p_len[i] = p_pos.extent(0)


def main():
    n = 20000
    w = Draw(n, 2024)
    pk.execute(pk.ExecutionSpace.Default, w)
    x = np.asarray(w.p_pos)
    bad = []
    if not (x.min() >= 0.0 and x.max() < 1.0 and abs(x.mean() - 0.5) < 0.01):
        bad.append(f"draws: min {x.min()} max {x.max()} mean {x.mean()}")
    if len(np.unique(x)) < n - 5:
        bad.append(f"only {len(np.unique(x))} distinct draws of {n}")
    if not np.all(np.asarray(w.p_len) == n):
        bad.append(f"extent {np.unique(np.asarray(w.p_len)).tolist()}, want {n}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
