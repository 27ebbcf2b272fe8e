"""Operands Python evaluates once stay evaluated once: the middle of a
chained comparison (`lo < state.drand() < hi`, `0 <= pk.atomic_fetch_add(...)
< cap`: one draw, one count) and the element of `x[i] //= y`, `%=` and `**=`
whose index has effects (one slot reserved per item). Counts against the
number of items, values against numpy."""
import numpy as np
import pykokkos as pk


@pk.workunit
def band(i: int, pool: pk.Random_XorShift64_Pool, hits: pk.View1D[pk.int64],
         draws: pk.View1D[pk.int64]):
    state = pool.get_state()
    if 0.25 < state.drand() < 0.75:
        pk.atomic_add(hits, [0], 1)
    if 0 <= pk.atomic_fetch_add(draws, [0], 1) < 1 << 40:
        pk.atomic_add(draws, [1], 1)
    pool.free_state(state)


@pk.workunit
def reserve(i: int, cnt: pk.View1D[pk.int64], out: pk.View1D[pk.int64]):
    out[pk.atomic_fetch_add(cnt, [0], 1)] %= 5
    out[pk.atomic_fetch_add(cnt, [1], 1) + 8] //= 3
    out[pk.atomic_fetch_add(cnt, [2], 1) + 16] **= 2


n = 20000
pool = pk.Random_XorShift64_Pool(12345)
hits = pk.View([1], pk.int64)
draws = pk.View([2], pk.int64)
pk.parallel_for(n, band, pool=pool, hits=hits, draws=draws)
frac = int(hits[0]) / n
checks = [("one count per item", [int(draws[0]), int(draws[1])], [n, n]),
          ("one draw per test", abs(frac - 0.5) < 0.02, True)]

m = 8
start = np.arange(3 * m, dtype=np.int64) + 10
cnt = pk.View([3], pk.int64)
out = pk.View([3 * m], pk.int64)
out[:] = start
pk.parallel_for(m, reserve, cnt=cnt, out=out)
want = start.copy()
want[:m] %= 5
want[m:2 * m] //= 3
want[2 * m:] **= 2
checks.append(("one slot per item", np.asarray(cnt).tolist(), [m, m, m]))
checks.append(("elements", np.asarray(out).tolist(), want.tolist()))
bad = [c[0] for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad} {checks}")
