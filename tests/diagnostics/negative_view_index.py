# expect: 10:18: negative index -1: Kokkos Views do not wrap around as Python lists do; write A.extent(0) - 1 for this index
"""`A[-1]` on a View: Python would wrap around, a Kokkos View reads before its
first element (heap corruption). A located error says what to write."""
import pykokkos as pk


@pk.workunit
def last_plus(i: int, A: pk.View1D[pk.double], B: pk.View1D[pk.double]):
    B[i] = A[i]
    x: float = A[-1]
    B[i] += x
