# expect: 6:12: 'x.drand()' needs a random state from pool.get_state()
import pykokkos as pk

@pk.workunit
def k(i: int, x: float, v: pk.View1D[float]):
    v[i] = x.drand()
