"""Issue 22 item 5: Python identifiers are Unicode. A file named `ñandú.py`
(pkc and the shim must spell its module name alike), a workunit, parameters
and locals with non-ASCII letters, and an unannotated workunit with a
non-ASCII name that is specialized at run time (the signature parser reads
it), and a workload whose class, members and methods are non-ASCII."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def añadir(i: int, salida: pk.View1D[pk.double], año: float):
    δ: float = año * 2.0
    salida[i] = salida[i] + δ + i


@pk.workunit
def escalar_ñ(i, vista, α):
    vista[i] = vista[i] * α


@pk.workload
class Größe:
    def __init__(self, n):
        self.n: int = n
        self.summe: float = 0.0
        self.maß: float = 2.5
        self.ergebnis: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def läuft(self):
        pk.parallel_for(self.n, self.schritt)
        self.summe = pk.parallel_reduce(self.n, lambda i, acc: acc + self.ergebnis[i] * self.maß)

    @pk.workunit
    def schritt(self, i: int):
        for j in range(self.n - i):
            self.ergebnis[i] += self.maß


def main():
    n = 6
    salida = pk.View([n], pk.double)
    pk.parallel_for(n, añadir, salida=salida, año=1.5)
    args = {"vista": salida, "α": 2.0}   # from a dict: typed at run time
    pk.parallel_for(n, escalar_ñ, **args)
    want = (np.arange(n) + 3.0) * 2.0
    got = np.asarray(salida)
    if not np.array_equal(got, want):
        print(f"BAD {got.tolist()} want {want.tolist()}")
        sys.exit(1)
    g = Größe(4)
    pk.execute(pk.ExecutionSpace.Default, g)
    if np.asarray(g.ergebnis).tolist() != [10.0, 7.5, 5.0, 2.5] or g.summe != 62.5:
        print(f"BAD workload {np.asarray(g.ergebnis).tolist()} {g.summe}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
