"""A module global a kernel reads (an implicit kernel argument, read at each
launch), assigned several times in one function (`global SCALE`), in a loop
too: every value is a float, so it keeps one type. pkc took only functions
that assign it once ("its assignments do not give it one type")."""
import numpy as np
import pykokkos as pk

SCALE = 2.0


@pk.workunit
def scale(i: int, v: pk.View1D[pk.float64]):
    v[i] = v[i] * SCALE


def run():
    global SCALE
    v = np.ones(6)
    SCALE = 2.0
    pk.parallel_for(6, scale, v=v)
    SCALE = -1.5
    pk.parallel_for(6, scale, v=v)
    for k in range(3):
        SCALE = 0.5 + k
        pk.parallel_for(6, scale, v=v)
    return v


v = run()
want = 2.0 * -1.5 * 0.5 * 1.5 * 2.5
print("OK" if np.allclose(v, want) else f"BAD {v} for {want}")
