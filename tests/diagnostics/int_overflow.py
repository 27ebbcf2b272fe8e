# expect: 7:12: integer literal 99999999999999999999 does not fit in 64 bits
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[pk.int64]):
    v[i] = 99999999999999999999
