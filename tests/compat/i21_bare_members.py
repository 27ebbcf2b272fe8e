"""Issue 21 1.1 and 1.4: data members named without `self.` in workunits of a
workload and a functor and in @pk.main, resolved as the C++ PyKokkos emits
would resolve them: a parameter or local first, then the member, then a module
global (a global named like a member is the member in @pk.main)."""
import sys

import numpy as np
import pykokkos as pk

dt = 100.0          # module global shadowed by the member 'dt' (issue 21 1.4)
scale = 3.0         # module global with no member of that name


@pk.workload
class Push:
    def __init__(self, n: int, x: pk.View1D[pk.double], v: pk.View1D[pk.double]):
        self.num_part: int = n
        self.dt: float = 0.5
        self.p_pos: pk.View1D[pk.double] = x
        self.p_speed: pk.View1D[pk.double] = v
        self.energy: float = 0.0
        self.steps: int = 0

    @pk.main
    def run(self):
        for s in range(3):
            pk.parallel_for(num_part, self.move)
            steps += 1
        energy = pk.parallel_reduce(num_part, self.kinetic)
        energy = energy * dt          # the member dt (0.5), not the global (100.0)

    @pk.workunit
    def move(self, i: int):
        p_pos[i] += dt * p_speed[i]

    @pk.workunit
    def kinetic(self, i: int, acc: pk.Acc[pk.double]):
        dt: float = 2.0               # a local shadows the member
        acc += dt * p_speed[i] * p_speed[i] + scale * 0.0


@pk.functor
class Scale:
    def __init__(self, factor: float, y: pk.View1D[pk.double]):
        self.factor: float = factor
        self.y: pk.View1D[pk.double] = y

    @pk.workunit
    def apply(self, i: int):
        y[i] = factor * y[i] + scale


def main():
    n = 10
    x = pk.View([n], pk.double)
    v = pk.View([n], pk.double)
    v[:] = np.arange(n, dtype=np.float64)
    w = Push(n, x, v)
    pk.execute(pk.ExecutionSpace.Default, w)
    f = Scale(2.0, x)
    pk.parallel_for(n, f.apply)

    ar = np.arange(n, dtype=np.float64)
    want_x = 2.0 * (3 * 0.5 * ar) + 3.0
    want_e = float(np.sum(2.0 * ar * ar)) * 0.5
    bad = []
    if not np.allclose(np.asarray(x), want_x):
        bad.append(f"x={np.asarray(x).tolist()}")
    if w.steps != 3:
        bad.append(f"steps={w.steps}")
    if abs(w.energy - want_e) > 1e-9 * want_e:
        bad.append(f"energy={w.energy} want {want_e}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
