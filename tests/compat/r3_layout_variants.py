"""An annotated workunit called with Views of the other layout: PyKokkos builds
a variant of the workunit per layout of the Views a call passes (its type
inference adds the passed Views' layouts to the decorator), so a LayoutLeft View,
a Fortran-ordered numpy array or a transposed one runs the same kernel with the
right numbers. A layout the decorator declares stays a requirement (TypeError)."""
import numpy as np
import pykokkos as pk


@pk.workunit
def scale_rows(i: int, a: pk.View2D[pk.double], b: pk.View2D[pk.double], s: float):
    for j in range(a.extent(1)):
        b[i][j] = s * a[i][j] + j


@pk.workunit
def row_sums(i: int, acc: pk.Acc[pk.double], a: pk.View2D[pk.double]):
    for j in range(a.extent(1)):
        acc += a[i][j] * (j + 1)


@pk.workunit(a=pk.ViewTypeInfo(layout=pk.LayoutRight))
def declared(i: int, a: pk.View2D[pk.double]):
    a[i][0] = 1.0


n, m = 7, 5
ref = np.arange(n * m, dtype=np.float64).reshape(n, m)
want = 2.0 * ref + np.arange(m)
bad = []

left_a = pk.View([n, m], pk.double, layout=pk.LayoutLeft)
left_b = pk.View([n, m], pk.double, layout=pk.LayoutLeft)
left_a[:] = ref
pk.parallel_for(n, scale_rows, a=left_a, b=left_b, s=2.0)
if not np.array_equal(np.asarray(left_b), want):
    bad.append(f"LayoutLeft Views: {np.asarray(left_b)}")

right_b = pk.View([n, m], pk.double)
pk.parallel_for(pk.RangePolicy(0, n), scale_rows, a=left_a, b=right_b, s=2.0)
if not np.array_equal(np.asarray(right_b), want):
    bad.append(f"LayoutLeft in, default out: {np.asarray(right_b)}")

fortran_out = np.zeros((n, m), order="F")
pk.parallel_for(n, scale_rows, a=np.asfortranarray(ref), b=fortran_out, s=2.0)
if not np.array_equal(fortran_out, want):
    bad.append(f"Fortran-ordered arrays: {fortran_out}")

c_out = np.zeros((n, m))
pk.parallel_for(n, scale_rows, a=ref.T.copy().T, b=c_out, s=2.0)   # a transposed copy
if not np.array_equal(c_out, want):
    bad.append(f"transposed array: {c_out}")

total = pk.parallel_reduce(n, row_sums, a=np.asfortranarray(ref))
if total != float((ref * np.arange(1, m + 1)).sum()):
    bad.append(f"reduction over a Fortran-ordered array: {total}")
if pk.parallel_reduce(n, row_sums, a=ref) != total:
    bad.append("the C-ordered reduction differs")

try:
    pk.parallel_for(n, declared, a=left_a)
    bad.append("a declared LayoutRight took a LayoutLeft View")
except TypeError as e:
    if "declared" not in str(e) or "'a'" not in str(e):
        bad.append(f"message: {e}")
print("OK" if not bad else f"BAD {bad}")
