"""Classtype values that @pk.functions and methods return, used as Python
uses them: an unannotated local bound to the call (p = mk(x), d = a.sub(b))
takes the classtype, so its fields and methods work; the call's value is
used directly too (mk(x).norm2(), a.sub(b).x). Checked against the same
arithmetic in numpy."""
import numpy as np
import pykokkos as pk


@pk.classtype
class Vec3:
    def __init__(self, x: float, y: float, z: float):
        self.x: float = x
        self.y: float = y
        self.z: float = z

    @pk.function
    def sub(self, o: "Vec3") -> "Vec3":
        return Vec3(self.x - o.x, self.y - o.y, self.z - o.z)

    @pk.function
    def dot(self, o: "Vec3") -> float:
        return self.x * o.x + self.y * o.y + self.z * o.z


@pk.function
def load(p: pk.View2D[pk.double], i: int) -> Vec3:
    return Vec3(p[i][0], p[i][1], p[i][2])


@pk.workunit
def pair_energy(i: int, p: pk.View2D[pk.double], e: pk.View1D[pk.double], n: int):
    pi = load(p, i)
    s: float = 0.0
    for j in range(n):
        if j != i:
            d = pi.sub(load(p, j))
            r2 = d.dot(d)
            s += 1.0 / r2 + d.x * 0.0
    e[i] = s + load(p, i).sub(pi).dot(pi) + pi.sub(load(p, 0)).x * 0.0


@pk.workunit
def first_coordinate(i: int, p: pk.View2D[pk.double], out: pk.View1D[pk.double]):
    out[i] = load(p, i).x + load(p, i).sub(load(p, 0)).y


n = 7
rng = np.random.default_rng(5)
pts = rng.random((n, 3)) * 4.0
p = pk.View([n, 3], pk.double)
p[:] = pts
e = pk.View([n], pk.double)
pk.parallel_for(n, pair_energy, p=p, e=e, n=n)
want = np.array([sum(1.0 / np.dot(pts[i] - pts[j], pts[i] - pts[j]) for j in range(n) if j != i)
                 for i in range(n)])
out = pk.View([n], pk.double)
pk.parallel_for(n, first_coordinate, p=p, out=out)
ok = np.allclose(np.asarray(e), want, rtol=1e-12) and \
    np.array_equal(np.asarray(out), pts[:, 0] + (pts[:, 1] - pts[0, 1]))
print("OK" if ok else f"BAD {np.asarray(e)} {want} {np.asarray(out)}")
