# expect: 6:19: the first argument of pk.atomic_add must be a View
import pykokkos as pk

@pk.workunit
def k(i: int, x: float, v: pk.View1D[float]):
    pk.atomic_add(x, [i], 1.0)
