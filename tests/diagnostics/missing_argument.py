# expect: 10:12: 'f' is missing the argument 'a'
import pykokkos as pk

@pk.function
def f(a: float, b: float = 2.0) -> float:
    return a + b

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = f(b=1.0)
