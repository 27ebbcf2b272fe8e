# expect: 8:23: negative index -1: Kokkos Views do not wrap around
# expect-only
# A constant negative index in an atomic is reported as in a[-1].
import pykokkos as pk

@pk.workunit
def k(i: int, a: pk.View1D[pk.int16]):
    pk.atomic_add(a, [-1], 3)
