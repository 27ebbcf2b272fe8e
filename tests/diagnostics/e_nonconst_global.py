# expect: 9:12: global 'n' is not a compile-time constant; pass it as a kernel argument
import pykokkos as pk

import sys
n = int(sys.argv[1])

@pk.workunit
def k(i: int, A: pk.View1D[pk.double]):
    A[i] = n
