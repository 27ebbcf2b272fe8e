"""A first-time user's program (issue 24 item 4): the 2-D heat equation with
two workunits whose parameters are unannotated (typed from the arguments of
their first launch), an MDRangePolicy without tiles and a RangePolicy. Run as
`python3 heat2d.py N STEPS`; checks the field against numpy and prints OK."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def heat_step(i, j, u, u_new, alpha):
    u_new[i, j] = u[i, j] + alpha * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1]
                                     + u[i, j + 1] - 4.0 * u[i, j])


@pk.workunit
def boundary(i, u_new, n):
    u_new[0, i] = 0.0
    u_new[n - 1, i] = 0.0
    u_new[i, 0] = 0.0
    u_new[i, n - 1] = 0.0


def step(u, u_new, alpha):
    n = u.shape[0]
    pk.parallel_for(pk.MDRangePolicy([1, 1], [n - 1, n - 1]), heat_step,
                    u=u, u_new=u_new, alpha=alpha)
    pk.parallel_for(n, boundary, u_new=u_new, n=n)


def start(n):
    u = np.zeros((n, n))
    u[n // 4: 3 * n // 4, n // 4: 3 * n // 4] = 1.0
    return u


def reference(n, steps, alpha):
    u = start(n)
    for _ in range(steps):
        v = u.copy()
        v[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2]
                                                 + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1])
        v[0, :] = v[-1, :] = v[:, 0] = v[:, -1] = 0.0
        u = v
    return u


def main(n, steps):
    u = start(n)
    u_new = np.empty_like(u)
    for _ in range(steps):
        step(u, u_new, 0.2)
        u, u_new = u_new, u
    pk.fence()
    want = reference(n, steps, 0.2)
    err = float(np.max(np.abs(u - want)))
    if err > 1e-12 or not np.isfinite(u).all():
        print(f"BAD heat2d: max error {err} against numpy")
        sys.exit(1)
    print(f"heat2d: sum {u.sum():.12f}")
    print("OK")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40,
         int(sys.argv[2]) if len(sys.argv) > 2 else 5)
