# expect: 11:19: 'f' has no parameter 'c'
import pykokkos as pk
import math

@pk.function
def f(a: float, b: float) -> float:
    return a + b

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = f(1.0, c=2.0)
