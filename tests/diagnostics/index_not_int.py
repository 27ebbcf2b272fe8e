# expect: 6:10: the work index 'i' must be annotated 'int'
import pykokkos as pk
import math

@pk.workunit
def k(i: str, v: pk.View1D[float]):
    v[0] = 1.0
