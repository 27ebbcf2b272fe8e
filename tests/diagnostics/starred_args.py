# expect: 11:14: starred arguments (*args) are not supported in kernels
import pykokkos as pk
import math

@pk.function
def f(a: float, b: float) -> float:
    return a + b

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = f(*v)
