# expect: 6:28: needs 2 indexes in the list, got 1
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View2D[float]):
    pk.atomic_fetch_add(v, [i], 1.0)
