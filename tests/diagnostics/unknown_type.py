# expect: 6:28: unknown View element type 'complex'
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[complex]):
    v[i] = 1.0
