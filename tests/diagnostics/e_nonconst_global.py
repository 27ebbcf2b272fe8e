# expect: 11:12: global 'n' is not a compile-time constant and its assignments do not give it one type; pass it as a kernel argument
import pykokkos as pk

import sys
n = int(sys.argv[1])
if len(sys.argv) > 2:
    n = sys.argv[2]

@pk.workunit
def k(i: int, A: pk.View1D[pk.double]):
    A[i] = n
