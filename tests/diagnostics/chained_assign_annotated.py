# expect: 7:5: annotations are not allowed in a chained assignment
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    a: float = b = 1.0
