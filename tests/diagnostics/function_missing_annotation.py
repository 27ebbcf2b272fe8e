# expect: 6:7: parameter 'a' needs a type annotation, e.g. 'a: float', 'a: pk.View1D[pk.double]' or, for a random pool's state, 'a: pk.Random_XorShift64'
import pykokkos as pk
import math

@pk.function
def f(a) -> float:
    return a
