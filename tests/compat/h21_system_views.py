"""Issue 21 section 2, as ExaMiniMD and PyKokkos' tests use Views on the
host: copy.deepcopy of an object holding Views keeps the Views (PyKokkos'
View.__deepcopy__ returns the View), kernels run on the copy's Views and
the original sees the results; View.data is assigned (`v.data += k`,
`v.data[:] = a`); a system with no atoms (0 x 3 positions) runs its kernels
over zero iterations; two workunits run through the list form
pk.parallel_for(n, [wu1, wu2], args_0=..., args_1=...). Checked against
numpy."""
import copy
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def drift(i, x, v, dt):
    for d in range(3):
        x[i][d] += dt * v[i][d]


@pk.workunit
def kinetic(i, acc, v, mass):
    acc += 0.5 * mass * (v[i][0] * v[i][0] + v[i][1] * v[i][1] + v[i][2] * v[i][2])


@pk.workunit
def scale(i, v, s):
    for d in range(3):
        v[i][d] *= s


@pk.workunit
def count(i, n_seen):
    n_seen[i] = 1


class System:
    def __init__(self, n):
        self.n = n
        self.x = pk.View([n, 3], pk.double)
        self.v = pk.View([n, 3], pk.double)
        self.mass = 2.0


def step(s, dt):
    pk.parallel_for(s.n, drift, x=s.x, v=s.v, dt=dt)
    return pk.parallel_reduce(s.n, kinetic, v=s.v, mass=s.mass)


def main():
    bad = []
    n = 8
    x0 = np.arange(3 * n, dtype=np.float64).reshape(n, 3)
    v0 = np.cos(np.arange(3 * n)).reshape(n, 3)
    system = System(n)
    system.x.data[:] = x0                       # View.data written through
    system.v.data = v0.copy()
    system.x.data += 1.0
    work = copy.deepcopy(system)                # ExaMiniMD's integrator copy
    if work.x is not system.x or work.v is not system.v:
        bad.append("deepcopy copied the Views")
    ke = step(work, 0.5)
    want_x = x0 + 1.0 + 0.5 * v0
    if not np.allclose(np.asarray(system.x), want_x, rtol=1e-14):
        bad.append("the original system does not see the kernel's positions")
    if not np.isclose(ke, 0.5 * 2.0 * (v0 ** 2).sum(), rtol=1e-13):
        bad.append(f"kinetic energy {ke}")
    seen = pk.View([n], pk.int32)
    pk.parallel_for(n, [scale, count], args_0={"v": system.v, "s": 2.0},
                    args_1={"n_seen": seen})
    if not np.allclose(np.asarray(system.v), 2.0 * v0) or int(pk.sum(seen)) != n:
        bad.append("the list form of parallel_for")
    empty = System(0)                           # no atoms: zero iterations
    if np.asarray(empty.x).shape != (0, 3):
        bad.append("empty positions")
    if step(empty, 0.5) != 0.0:
        bad.append("an empty system's kinetic energy")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
