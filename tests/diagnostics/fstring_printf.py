# expect: 7:15: f-strings and bytes are not supported as pk.printf formats
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    pk.printf(f"{i}\n")
