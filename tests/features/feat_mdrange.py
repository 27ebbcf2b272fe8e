"""A rank-3 MDRangePolicy workunit filling a 3-D View, checked against
numpy.fromfunction."""
import numpy as np
import pykokkos as pk

@pk.workunit
def k(i: int, j: int, l: int, A: pk.View3D[pk.double]):
    A[i][j][l] = float(100 * i + 10 * j + l)

A = pk.View([2, 3, 4], pk.double)
pk.parallel_for(pk.MDRangePolicy([0, 0, 0], [2, 3, 4]), k, A=A)
ref = np.fromfunction(lambda i, j, l: 100 * i + 10 * j + l, (2, 3, 4))
print("OK" if np.array_equal(np.asarray(A), ref) else "BAD")
