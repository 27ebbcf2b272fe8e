# expect: 6:9: pk.Timer() is only available in the host code of a @pk.main method, not in kernels
import pykokkos as pk

@pk.workunit
def k(i: int, A: pk.View1D[pk.double]):
    t = pk.Timer()
