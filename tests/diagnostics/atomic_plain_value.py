# expect: 10:11: pk.atomic_max(...) returns nothing (PyKokkos); call it on a line of its own, or use pk.atomic_fetch_max(...) for the value before the update
"""PyKokkos' plain atomics (pk.atomic_max ...) return nothing: a kernel that
uses the value is pointed at the fetch form."""
import pykokkos as pk


@pk.workunit
def peak(i: int, best: pk.View1D[pk.double], out: pk.View1D[pk.double]):
    old: float = 0.0
    old = pk.atomic_max(best, [0], float(i))
    out[i] = old


def run(n, best, out):
    pk.parallel_for(n, peak, best=best, out=out)
