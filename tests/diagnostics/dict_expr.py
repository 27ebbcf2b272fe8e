# expect: 7:9: dicts are not supported in kernels
import pykokkos as pk
import math

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    d = {"a": 1}
