# expect: 7:5: 'continue' outside a loop
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    continue
