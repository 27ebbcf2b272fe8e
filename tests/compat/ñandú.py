"""Issue 22 item 5: Python identifiers are Unicode. A file named `ñandú.py`
(pkc and the shim must spell its module name alike), a workunit, parameters
and locals with non-ASCII letters, and an unannotated workunit with a
non-ASCII name that is specialized at run time (the signature parser reads
it)."""
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
    print("OK")


if __name__ == "__main__":
    main()
