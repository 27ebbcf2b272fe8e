"""pk.printf from a kernel, numpy dtypes in annotations (numpy.float32) and
narrow integer Views (uint16, int8) with their wrap-around values."""
import numpy
import numpy as np
import pykokkos as pk

@pk.workunit
def k(i: int, x: pk.View1D[numpy.float32], u: pk.View1D[pk.uint16], b: pk.View1D[pk.int8]):
    if i == 0:
        pk.printf("hello %d %f\n", i, 1.5)
    x[i] = 0.5 * 2
    u[i] = 65535
    b[i] = -3

x = pk.View([2], pk.float32)
u = pk.View([2], pk.uint16)
b = pk.View([2], pk.int8)
pk.parallel_for(2, k, x=x, u=u, b=b)
print("OK" if list(np.asarray(x)) == [1.0, 1.0] and list(np.asarray(u)) == [65535] * 2 and list(np.asarray(b)) == [-3, -3] else f"BAD {np.asarray(x)} {np.asarray(u)} {np.asarray(b)}")
