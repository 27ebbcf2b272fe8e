# expect: 8:5: 'x' is already declared at 7:5
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    x: float = 1.0
    x: int = 2
