# expect: 7:5: 'assert' is not supported yet
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    assert i >= 0
