"""NPBench fdtd_2d as a PyKokkos program: per-step time plain vs pk.Graph
replay (bench/graphs/harness.py). The source term of step t, _fict_[t],
changes every step: it is read on the device through a step counter View
(a graph replays its launches' arguments as captured, so a value passed as
an argument could not change). Usage: python3 fdtd_2d.py [NX NY STEPS]"""
# test-args: 20 24 10
import os
import sys

import numpy as np

import pykokkos as pk

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import args, measure  # noqa: E402


@pk.workunit
def source(j: int, ey: pk.View2D[pk.double], fict: pk.View1D[pk.double],
           t: pk.View1D[pk.int64]):
    ey[0][j] = fict[t[0]]


@pk.workunit
def update_ey(i: int, j: int, ey: pk.View2D[pk.double], hz: pk.View2D[pk.double]):
    ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j])


@pk.workunit
def update_ex(i: int, j: int, ex: pk.View2D[pk.double], hz: pk.View2D[pk.double]):
    ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1])


@pk.workunit
def update_hz(i: int, j: int, hz: pk.View2D[pk.double], ex: pk.View2D[pk.double],
              ey: pk.View2D[pk.double]):
    hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j])


@pk.workunit
def advance(k: int, t: pk.View1D[pk.int64]):
    t[0] += 1  # pkc: allow possible-race


def make(nx, ny, tmax):
    ex = np.fromfunction(lambda i, j: (i * (j + 1)) / nx, (nx, ny))
    ey = np.fromfunction(lambda i, j: (i * (j + 2)) / ny, (nx, ny))
    hz = np.fromfunction(lambda i, j: (i * (j + 3)) / nx, (nx, ny))
    return (pk.array(ex), pk.array(ey), pk.array(hz),
            pk.array(np.arange(tmax, dtype=np.float64)), pk.View([1], pk.int64))


def step(ex, ey, hz, fict, t):
    nx, ny = ex.shape
    pk.parallel_for(ny, source, ey=ey, fict=fict, t=t)
    pk.parallel_for(pk.MDRangePolicy([1, 0], [nx, ny]), update_ey, ey=ey, hz=hz)
    pk.parallel_for(pk.MDRangePolicy([0, 1], [nx, ny]), update_ex, ex=ex, hz=hz)
    pk.parallel_for(pk.MDRangePolicy([0, 0], [nx - 1, ny - 1]), update_hz, hz=hz, ex=ex, ey=ey)
    pk.parallel_for(1, advance, t=t)


def reference(s, steps):
    ex, ey, hz, fict, t = s
    for k in range(steps):
        ey[0, :] = fict[k]
        ey[1:, :] = ey[1:, :] - 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] = ex[:, 1:] - 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] = hz[:-1, :-1] - 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])
    t = t + steps
    return [ex, ey, hz, fict, t]


if __name__ == "__main__":
    nx, ny, steps = args([200, 240, 200])
    tmax = 1 + 5 * max(steps, 10) + 10   # every step of check, warm-up and timed blocks
    sys.exit(measure("fdtd_2d", f"{nx}x{ny}", lambda: make(nx, ny, tmax), step, reference,
                     steps, blocks=3))
