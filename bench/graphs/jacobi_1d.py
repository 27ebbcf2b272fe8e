"""NPBench jacobi_1d as a PyKokkos program: per-step time plain vs pk.Graph
replay (bench/graphs/harness.py). Usage: python3 jacobi_1d.py [N STEPS]"""
# test-args: 64 10
import os
import sys

import numpy as np

import pykokkos as pk

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import args, measure  # noqa: E402


@pk.workunit
def sweep(i: int, src: pk.View1D[pk.double], dst: pk.View1D[pk.double]):
    dst[i] = 0.33333 * (src[i - 1] + src[i] + src[i + 1])


def make(n):
    a = np.fromfunction(lambda i: (i + 2) / n, (n,))
    b = np.fromfunction(lambda i: (i + 3) / n, (n,))
    return pk.array(a), pk.array(b)


def step(A, B):
    n = A.shape[0]
    pk.parallel_for(pk.RangePolicy(1, n - 1), sweep, src=A, dst=B)
    pk.parallel_for(pk.RangePolicy(1, n - 1), sweep, src=B, dst=A)


def reference(s, t):
    A, B = s
    for _ in range(t):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])
    return [A, B]


if __name__ == "__main__":
    n, steps = args([4000, 200])
    sys.exit(measure("jacobi_1d", f"N={n}", lambda: make(n), step, reference, steps))
