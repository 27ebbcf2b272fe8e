"""Matrix-weighted inner product y^T A x (the Kokkos tutorial's exercise 02).

    pkc build examples/inner_product.py
    python3 examples/inner_product.py [N [M [REPEATS]]]   (default 4096 x 1024, 100 repeats)

One parallel_reduce over the N rows; each work item walks its row of A
(M columns) in an inner loop. The result is checked against numpy.
"""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def yAx(j: int, acc: pk.Acc[pk.double], M: int, y: pk.View1D[pk.double],
        x: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    row: float = 0.0
    for i in range(M):
        row += A[j][i] * x[i]
    acc += y[j] * row


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    M = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    rng = np.random.default_rng(2)
    y_np = rng.uniform(-1.0, 1.0, N)
    x_np = rng.uniform(-1.0, 1.0, M)
    A_np = rng.uniform(-1.0, 1.0, (N, M))

    y = pk.View([N], pk.double)
    x = pk.View([M], pk.double)
    A = pk.View([N, M], pk.double)
    np.asarray(y)[:] = y_np
    np.asarray(x)[:] = x_np
    np.asarray(A)[:] = A_np

    timer = pk.Timer()
    result = 0.0
    for _ in range(repeats):
        result = pk.parallel_reduce(N, yAx, M=M, y=y, x=x, A=A)
    pk.fence()
    seconds = timer.seconds()
    gbytes = 1e-9 * 8.0 * (N * M + N + M) * repeats
    print(f"inner_product: N={N} M={M} repeats={repeats} time {seconds:.4f} s "
          f"({gbytes / seconds:.2f} GB/s)")

    reference = float(y_np @ A_np @ x_np)
    scale = float(np.abs(y_np) @ np.abs(A_np) @ np.abs(x_np))
    error = abs(result - reference) / scale
    if error > 1e-10:
        print(f"inner_product: verification FAILED (y^T A x = {result!r}, numpy {reference!r})")
        sys.exit(1)
    print(f"inner_product: verification PASSED (y^T A x = {result:.12g}, numpy {reference:.12g})")


if __name__ == "__main__":
    main()
