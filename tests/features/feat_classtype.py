"""A @pk.classtype (Vec3) with @pk.function methods, constructed and used by
value inside a kernel; checked against numpy."""
import numpy as np
import pykokkos as pk

@pk.classtype
class Vec3:
    def __init__(self, x: float, y: float, z: float):
        self.x: float = x
        self.y: float = y
        self.z: float = z

    @pk.function
    def dot(self, o: "Vec3") -> float:
        return self.x * o.x + self.y * o.y + self.z * o.z

@pk.workunit
def k(i: int, out: pk.View1D[pk.double]):
    v = Vec3(1.0, 2.0, float(i))
    w = Vec3(1.0, 1.0, 1.0)
    v.x = 2.0
    out[i] = v.dot(w)

out = pk.View([3], pk.double)
pk.parallel_for(3, k, out=out)
print("OK" if list(np.asarray(out)) == [4.0, 5.0, 6.0] else f"BAD {np.asarray(out)}")
