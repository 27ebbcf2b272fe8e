# expect: 6:22: must be a list literal of indices
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    pk.atomic_add(v, i, 1.0)
