# expect: 7:20: the message of an assert in a kernel must be a string literal
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    assert i >= 0, i
