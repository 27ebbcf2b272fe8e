import pykokkos as pk

import sys
# a module global that is not a compile-time constant: read at each call
n = int(sys.argv[1])

@pk.workunit
def k(i: int, A: pk.View1D[pk.double]):
    A[i] = n
