"""A ClassSty functor: z = alpha*x + beta*y, then the 2-norm of z.

    pkc build examples/functor_axpby.py
    python3 examples/functor_axpby.py [N]     (default N = 1,000,000)

The @pk.functor class holds Views and scalars as typed members; it has two
workunits (a parallel_for and a parallel_reduce) that share @pk.function
device functions. Results are checked against numpy.
"""
import math
import sys

import numpy as np
import pykokkos as pk


@pk.functor
class Axpby:
    def __init__(self, alpha: float, beta: float, x: pk.View1D[pk.double],
                 y: pk.View1D[pk.double], z: pk.View1D[pk.double]):
        self.alpha: float = alpha
        self.beta: float = beta
        self.x: pk.View1D[pk.double] = x
        self.y: pk.View1D[pk.double] = y
        self.z: pk.View1D[pk.double] = z

    @pk.function
    def axpby(self, a: float, u: float, b: float, v: float) -> float:
        # As in BLAS: with b == 0, v is not read (so a NaN in y does not spread).
        if b == 0.0:
            return a * u
        return a * u + b * v

    @pk.function
    def square(self, v: float) -> float:
        return v * v

    @pk.workunit
    def combine(self, i: int):
        self.z[i] = self.axpby(self.alpha, self.x[i], self.beta, self.y[i])

    @pk.workunit
    def sum_squares(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.square(self.z[i])


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    alpha, beta = 2.5, -0.75
    rng = np.random.default_rng(4)
    x_np = rng.uniform(-1.0, 1.0, N)
    y_np = rng.uniform(-1.0, 1.0, N)

    x = pk.View([N], pk.double)
    y = pk.View([N], pk.double)
    z = pk.View([N], pk.double)
    np.asarray(x)[:] = x_np
    np.asarray(y)[:] = y_np

    f = Axpby(alpha, beta, x, y, z)
    pk.parallel_for(pk.RangePolicy(0, N), f.combine)
    norm = math.sqrt(pk.parallel_reduce(N, f.sum_squares))

    z_np = alpha * x_np + beta * y_np
    if not np.allclose(np.asarray(z), z_np, rtol=1e-14, atol=1e-14):
        print("functor_axpby: verification FAILED (z differs from numpy)")
        sys.exit(1)
    reference = float(np.linalg.norm(z_np))
    if abs(norm - reference) > 1e-10 * reference:
        print(f"functor_axpby: verification FAILED (norm {norm!r}, numpy {reference!r})")
        sys.exit(1)
    print(f"functor_axpby: verification PASSED (N={N}, |alpha*x + beta*y| = {norm:.12g})")


if __name__ == "__main__":
    main()
