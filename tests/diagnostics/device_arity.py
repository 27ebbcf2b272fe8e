# expect: 11:12: wrong number of arguments to 'f': expected 2, got 1
import pykokkos as pk
import math

@pk.function
def f(a: float, b: float) -> float:
    return a + b

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = f(1.0)
