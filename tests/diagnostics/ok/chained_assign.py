import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    a = b = 1.0
