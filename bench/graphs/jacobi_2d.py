"""NPBench jacobi_2d as a PyKokkos program: per-step time plain vs pk.Graph
replay (bench/graphs/harness.py). Usage: python3 jacobi_2d.py [N STEPS]"""
# test-args: 24 10
import os
import sys

import numpy as np

import pykokkos as pk

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import args, measure  # noqa: E402


@pk.workunit
def sweep(i: int, j: int, src: pk.View2D[pk.double], dst: pk.View2D[pk.double]):
    dst[i][j] = 0.2 * (src[i][j] + src[i][j - 1] + src[i][j + 1] + src[i + 1][j] + src[i - 1][j])


def make(n):
    a = np.fromfunction(lambda i, j: i * (j + 2) / n, (n, n))
    b = np.fromfunction(lambda i, j: i * (j + 3) / n, (n, n))
    return pk.array(a), pk.array(b)


def step(A, B):
    n = A.shape[0]
    pk.parallel_for(pk.MDRangePolicy([1, 1], [n - 1, n - 1]), sweep, src=A, dst=B)
    pk.parallel_for(pk.MDRangePolicy([1, 1], [n - 1, n - 1]), sweep, src=B, dst=A)


def reference(s, t):
    A, B = s
    for _ in range(t):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])
    return [A, B]


if __name__ == "__main__":
    n, steps = args([250, 200])
    sys.exit(measure("jacobi_2d", f"N={n}", lambda: make(n), step, reference, steps))
