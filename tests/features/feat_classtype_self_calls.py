"""Classtype methods calling the classtype's other methods through self, as
PyKokkos' translator allows (C++ member functions): self.sq() in norm(),
self.dot(self), a method that changes self through self.scale(...) (no
longer a const member function), and a method called on a temporary
(Vec(x, 1.0).norm()). Checked against numpy."""
import numpy as np
import pykokkos as pk


@pk.classtype
class Vec:
    def __init__(self, x: float, y: float):
        self.x: float = x
        self.y: float = y

    def dot(self, o: "Vec") -> float:
        return self.x * o.x + self.y * o.y

    def sq(self) -> float:
        return self.dot(self)

    def norm(self) -> float:
        return self.sq() ** 0.5

    def scale(self, s: float):
        self.x = self.x * s
        self.y = self.y * s

    def unit(self):
        self.scale(1.0 / self.norm())


@pk.workunit
def unit_x(i: int, xs: pk.View1D[pk.double], out: pk.View1D[pk.double],
           lengths: pk.View1D[pk.double]):
    v = Vec(3.0 + xs[i], 4.0)
    v.unit()
    out[i] = v.x
    lengths[i] = Vec(xs[i], 1.0).norm() + v.norm()


n = 5
xs = pk.View([n], pk.double)
xs[:] = np.linspace(-1.0, 2.0, n)
out = pk.View([n], pk.double)
lengths = pk.View([n], pk.double)
pk.parallel_for(n, unit_x, xs=xs, out=out, lengths=lengths)
x = np.asarray(xs)
ok = (np.allclose(np.asarray(out), (3.0 + x) / np.hypot(3.0 + x, 4.0), rtol=1e-14) and
      np.allclose(np.asarray(lengths), np.hypot(x, 1.0) + 1.0, rtol=1e-14))
print("OK" if ok else f"BAD {np.asarray(out)} {np.asarray(lengths)}")
