"""Issue 7 s3: classtype methods without @pk.function (every method of a
classtype is a device function, as in PyKokkos)."""
import sys

import numpy as np
import pykokkos as pk


@pk.classtype
class Particle:
    def __init__(self, x: float, v: float):
        self.x: float = x
        self.v: float = v

    def step(self, dt: float):
        self.x += self.v * dt

    def kinetic(self, m: float) -> float:
        return 0.5 * m * self.v * self.v

    def bounce(self):
        if self.x > 1.0:
            self.x = 2.0 - self.x
            self.v = -self.v


@pk.workunit
def move(i: int, x: pk.View1D[pk.double], v: pk.View1D[pk.double], e: pk.View1D[pk.double]):
    p: Particle = Particle(x[i], v[i])
    for _ in range(3):
        p.step(0.1)
        p.bounce()
    x[i] = p.x
    v[i] = p.v
    e[i] = p.kinetic(2.0)


def main():
    n = 6
    x = pk.View([n], pk.double)
    v = pk.View([n], pk.double)
    e = pk.View([n], pk.double)
    for i in range(n):
        x[i] = 0.1 * i
        v[i] = 1.0 + 0.5 * i
    pk.parallel_for(n, move, x=x, v=v, e=e)

    wx, wv = [], []
    for i in range(n):
        px, pv = 0.1 * i, 1.0 + 0.5 * i
        for _ in range(3):
            px += pv * 0.1
            if px > 1.0:
                px, pv = 2.0 - px, -pv
        wx.append(px)
        wv.append(pv)
    we = [0.5 * 2.0 * u * u for u in wv]
    if (not np.allclose(np.asarray(x), wx, rtol=1e-14) or np.asarray(v).tolist() != wv
            or not np.allclose(np.asarray(e), we, rtol=1e-14)):
        print(f"BAD x={np.asarray(x).tolist()} v={np.asarray(v).tolist()} e={np.asarray(e).tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
