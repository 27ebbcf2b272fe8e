"""@pk.main (host code) calls module functions of numbers only, an undecorated
helper here (PyKokkos translates the functions main reaches); they run on the
host too. A function taking a View stays a kernel-only function (error)."""
import numpy as np
import pykokkos as pk


def half(n: int) -> int:
    return n // 2


@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.m: int = 0
        self.v: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        self.m = half(self.n)
        pk.parallel_for(self.m, self.fill)

    @pk.workunit
    def fill(self, i: int):
        self.v[i] = 1.0


w = W(10)
pk.execute(pk.ExecutionSpace.Default, w)
print("OK" if w.m == 5 and np.asarray(w.v).sum() == 5 else f"MISMATCH m={w.m}")
