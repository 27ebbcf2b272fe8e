# expect: 7:9: list comprehensions are not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    s = [v[j] for j in range(10)]
