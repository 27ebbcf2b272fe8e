"""Issue 7 s1: Views and scalars held as `self.x` members of a plain Python
class (an app object, as in the mini-apps) and passed to unannotated workunits."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def advance(i, pos, vel, dt):
    pos[i] = pos[i] + dt * vel[i]


@pk.workunit
def kinetic(i, acc, vel, mass):
    acc += 0.5 * mass * vel[i] * vel[i]


class Particles:
    def __init__(self, n):
        self.n = n
        self.dt = 0.25
        self.mass = 2.0
        self.pos = pk.View([n], pk.double)
        self.vel = pk.View([n], pk.double)
        for i in range(n):
            self.vel[i] = i - 3.0

    def step(self):
        pk.parallel_for(self.n, advance, pos=self.pos, vel=self.vel, dt=self.dt)

    def energy(self):
        return pk.parallel_reduce(self.n, kinetic, vel=self.vel, mass=self.mass)


def main():
    p = Particles(9)
    for _ in range(4):
        p.step()
    e = p.energy()
    vel = np.arange(9) - 3.0
    want_pos = 4 * 0.25 * vel
    want_e = float((0.5 * 2.0 * vel * vel).sum())
    if not np.array_equal(np.asarray(p.pos), want_pos) or e != want_e:
        print(f"BAD pos={np.asarray(p.pos).tolist()} e={e!r} (want {want_e})")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
