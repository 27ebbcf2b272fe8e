"""pk.subview and B[i, :] slices of LayoutLeft and default-layout 2-D Views
inside kernels: column and row sums against numpy."""
import numpy as np
import pykokkos as pk

@pk.workunit(A=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def colsum(j: int, A: pk.View2D[pk.double], out: pk.View1D[pk.double]):
    col = pk.subview(A, slice(None), j)
    s: float = 0.0
    for i in range(col.extent(0)):
        s += col[i]
    out[j] = s

@pk.workunit
def rowsum(i: int, B: pk.View2D[pk.double], out: pk.View1D[pk.double]):
    row = B[i, :]
    s: float = 0.0
    for j in range(len(row)):
        s += row[j]
    out[i] = s

A = pk.View([3, 4], pk.double, layout=pk.LayoutLeft)
np.asarray(A)[:] = np.arange(12.0).reshape(3, 4)
out = pk.View([4], pk.double)
pk.parallel_for(4, colsum, A=A, out=out)
B = pk.from_numpy(np.arange(12.0).reshape(3, 4))
out2 = pk.View([3], pk.double)
pk.parallel_for(3, rowsum, B=B, out=out2)
C = pk.View([3], pk.double)
pk.deep_copy(C, out2)
ok = np.array_equal(np.asarray(out), np.arange(12.0).reshape(3, 4).sum(0)) and np.array_equal(C.to_numpy(), [6.0, 22.0, 38.0])
print("OK" if ok else f"BAD {np.asarray(out)} {np.asarray(C)}")
