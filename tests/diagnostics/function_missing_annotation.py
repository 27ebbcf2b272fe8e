# expect: 6:7: parameter 'a' needs a type annotation, e.g. 'a: float' or
import pykokkos as pk
import math

@pk.function
def f(a) -> float:
    return a
