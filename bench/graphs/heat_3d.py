"""NPBench heat_3d as a PyKokkos program: per-step time plain vs pk.Graph
replay (bench/graphs/harness.py). Usage: python3 heat_3d.py [N STEPS]"""
# test-args: 12 10
import os
import sys

import numpy as np

import pykokkos as pk

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import args, measure  # noqa: E402


@pk.workunit
def sweep(i: int, j: int, k: int, src: pk.View3D[pk.double], dst: pk.View3D[pk.double]):
    dst[i][j][k] = (0.125 * (src[i + 1][j][k] - 2.0 * src[i][j][k] + src[i - 1][j][k]) +
                    0.125 * (src[i][j + 1][k] - 2.0 * src[i][j][k] + src[i][j - 1][k]) +
                    0.125 * (src[i][j][k + 1] - 2.0 * src[i][j][k] + src[i][j][k - 1]) +
                    src[i][j][k])


def make(n):
    a = np.fromfunction(lambda i, j, k: (i + j + (n - k)) * 10 / n, (n, n, n))
    return pk.array(a), pk.array(a.copy())


def step(A, B):
    n = A.shape[0]
    pk.parallel_for(pk.MDRangePolicy([1, 1, 1], [n - 1, n - 1, n - 1]), sweep, src=A, dst=B)
    pk.parallel_for(pk.MDRangePolicy([1, 1, 1], [n - 1, n - 1, n - 1]), sweep, src=B, dst=A)


def reference(s, t):
    A, B = s
    c = (slice(1, -1),) * 3
    for _ in range(t):
        for src, dst in ((A, B), (B, A)):
            dst[c] = (0.125 * (src[2:, 1:-1, 1:-1] - 2.0 * src[c] + src[:-2, 1:-1, 1:-1]) +
                      0.125 * (src[1:-1, 2:, 1:-1] - 2.0 * src[c] + src[1:-1, :-2, 1:-1]) +
                      0.125 * (src[1:-1, 1:-1, 2:] - 2.0 * src[c] + src[1:-1, 1:-1, :-2]) +
                      src[c])
    return [A, B]


if __name__ == "__main__":
    n, steps = args([40, 200])
    sys.exit(measure("heat_3d", f"N={n}", lambda: make(n), step, reference, steps))
