"""Strided slices passed for View parameters, as PyKokkos programs write
them: a column `pk.subview(A, slice(None), j)`, a block `A[1:4, 2:5]`, every
other row of a numpy array, a LayoutLeft parameter given a C-ordered block.
Generated Views are contiguous, so the kernel works on a contiguous copy and
what it writes goes back into the slice (and so into its parent); a kernel
that only reads a slice leaves the parent as it was. Checked against numpy."""
import numpy as np
import pykokkos as pk


@pk.workunit
def scale_block(i: int, j: int, B: pk.View2D[pk.double], s: float):
    B[i][j] = B[i][j] * s


@pk.workunit
def add_to_column(i: int, c: pk.View1D[pk.double], v: float):
    c[i] += v


@pk.workunit
def column_sum(i: int, acc: pk.Acc[pk.double], c: pk.View1D[pk.double]):
    acc += c[i]


@pk.workunit
def copy_rows(i: int, j: int, src: pk.View2D[pk.int32], dst: pk.View2D[pk.int32]):
    dst[i][j] = src[i][j] * 10


@pk.workunit(a=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def transpose_left(i: int, j: int, a: pk.View2D[pk.float32], out: pk.View2D[pk.float32]):
    out[j][i] = a[i][j]


checks = []

a = np.arange(30.0).reshape(5, 6)
A = pk.from_numpy(a.copy())
pk.parallel_for(pk.MDRangePolicy([0, 0], [3, 3]), scale_block, B=A[1:4, 2:5], s=2.0)
want = a.copy()
want[1:4, 2:5] *= 2
checks.append(("block subview written", np.asarray(A).tolist(), want.tolist()))

col = pk.subview(A, slice(None), 1)
pk.parallel_for(5, add_to_column, c=col, v=100.0)
want[:, 1] += 100
checks.append(("column subview written", np.asarray(A).tolist(), want.tolist()))

before = np.array(A)
total = pk.parallel_reduce(5, column_sum, c=pk.subview(A, slice(None), 4))
checks.append(("column subview summed", total, float(want[:, 4].sum())))
checks.append(("read-only slice leaves the parent", np.asarray(A).tolist(), before.tolist()))

x = np.arange(48, dtype=np.int32).reshape(8, 6)
y = np.zeros((4, 3), dtype=np.int32)
pk.parallel_for(pk.MDRangePolicy([0, 0], [4, 3]), copy_rows, src=x[::2, 1::2], dst=y)
checks.append(("every other row of numpy", y.tolist(), (x[::2, 1::2] * 10).tolist()))

z = np.zeros((8, 6), dtype=np.int32)
pk.parallel_for(pk.MDRangePolicy([0, 0], [4, 3]), copy_rows, src=x[:4, :3], dst=z[2:6, 3:])
wz = np.zeros((8, 6), dtype=np.int32)
wz[2:6, 3:] = x[:4, :3] * 10
checks.append(("numpy block written", z.tolist(), wz.tolist()))

f = np.arange(20, dtype=np.float32).reshape(4, 5)
out = pk.View([3, 2], pk.float32)
pk.parallel_for(pk.MDRangePolicy([0, 0], [2, 3]), transpose_left, a=f[1:3, 1:4], out=out)
checks.append(("C-ordered block for LayoutLeft", np.asarray(out).tolist(), f[1:3, 1:4].T.tolist()))

bad = [c for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
