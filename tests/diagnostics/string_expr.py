# expect: 8:9: strings are only allowed as the format of pk.printf(...)
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = 1.0
    s = "hello"
