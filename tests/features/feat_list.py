"""Fixed-size List locals in a kernel, written in a loop and read back: a
literal, and `[0.0] * K` / `[0] * (2 * K)` with K a module-level constant."""
from typing import List
import numpy as np
import pykokkos as pk

K = 4


@pk.workunit
def k(i: int, out: pk.View1D[pk.double]):
    xs: List[float] = [0.0, 0.0, 0.0]
    for d in range(3):
        xs[d] = float(i + d)
    out[i] = xs[0] + xs[1] * xs[2]


@pk.workunit
def window(i: int, out: pk.View2D[pk.double]):
    buf: List[float] = [0.0] * K
    marks: List[int] = [0] * (2 * K)
    for t in range(K):
        buf[t] = i + t
        marks[2 * t + 1] = t
    for t in range(K):
        out[i][t] = buf[K - 1 - t] + marks[2 * t + 1] + marks[2 * t]


out = pk.View([3], pk.double)
pk.parallel_for(3, k, out=out)
win = pk.View([5, K], pk.double)
pk.parallel_for(5, window, out=win)
rows, cols = np.arange(5)[:, None], np.arange(K)[None, :]
want = rows + (K - 1 - cols) + cols
ok = list(np.asarray(out)) == [2.0, 7.0, 14.0] and np.array_equal(np.asarray(win), want)
print("OK" if ok else f"BAD {np.asarray(out)} {np.asarray(win)}")
