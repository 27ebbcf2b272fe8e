"""A @pk.classtype whose methods call module functions: an undecorated helper,
a @pk.function, and a @pk.function that takes the classtype itself (upstream's
implicit functions reach classtype methods too). The generated C++ declared the
functions after the classtype, so the file's module did not compile and every
kernel of the file was lost."""
import math

import numpy as np
import pykokkos as pk


def sq(x: float) -> float:
    return x * x


@pk.function
def clamp(x: float, lo: float, hi: float) -> float:
    return min(max(x, lo), hi)


@pk.classtype
class Vec2:
    def __init__(self, x: float, y: float):
        self.x: float = x
        self.y: float = y

    @pk.function
    def norm(self) -> float:
        return math.sqrt(sq(self.x) + sq(self.y))

    @pk.function
    def clipped(self, r: float) -> float:
        return clamp(self.norm(), 0.0, r) + dot(self, self) * 0.0


@pk.function
def dot(a: Vec2, b: Vec2) -> float:
    return a.x * b.x + a.y * b.y


@pk.workunit
def lengths(i: int, xs: pk.View1D[pk.double], ys: pk.View1D[pk.double],
            out: pk.View1D[pk.double]):
    v: Vec2 = Vec2(xs[i], ys[i])
    out[i] = v.clipped(5.0)


@pk.workunit
def untouched(i: int, out: pk.View1D[pk.double]):
    out[i] = 1.0


n = 64
rng = np.random.default_rng(3)
xs, ys = rng.uniform(-6, 6, n), rng.uniform(-6, 6, n)
out = np.zeros(n)
pk.parallel_for(n, untouched, out=out)
ok = bool((out == 1.0).all())
pk.parallel_for(n, lengths, xs=xs, ys=ys, out=out)
want = np.minimum(np.hypot(xs, ys), 5.0)
print("OK" if ok and np.allclose(out, want, rtol=1e-14) else f"BAD {out - want}")
