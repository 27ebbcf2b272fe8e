# expect: 8:9: 'break' outside a loop
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    if i > 3:
        break
