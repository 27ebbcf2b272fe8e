"""An MDRangePolicy whose end is below its begin in some dimension runs no
point, as Python's range(5, 3) is empty (Kokkos 4 aborts on such a policy;
pkc passes end = begin there), and the points of a non-empty one are the
box's, for rank 2 and 3. A C caller passing such a policy straight to a
kernel's entry point gets an error naming the dimension (checked here by
changing the policy's C struct behind the shim's back)."""
import numpy as np
import pykokkos as pk


@pk.workunit
def mark2(i: int, j: int, a: pk.View2D[pk.int64]):
    a[i][j] += 1


@pk.workunit
def mark3(i: int, j: int, k: int, b: pk.View3D[pk.int64]):
    b[i][j][k] += 1


a = pk.View([6, 6], pk.int64)
b = pk.View([4, 4, 4], pk.int64)
pk.parallel_for(pk.MDRangePolicy([0, 5], [4, 3]), mark2, a=a)          # j in range(5, 3)
pk.parallel_for(pk.MDRangePolicy([4, 0], [2, 6]), mark2, a=a)          # i in range(4, 2)
pk.parallel_for(pk.MDRangePolicy([0, 0, 3], [4, 4, 1]), mark3, b=b)    # k in range(3, 1)
empty = not np.asarray(a).any() and not np.asarray(b).any()
pk.parallel_for(pk.MDRangePolicy([1, 2], [3, 5]), mark2, a=a)
pk.parallel_for(pk.MDRangePolicy([0, 1, 2], [2, 3, 4]), mark3, b=b)
want_a = np.zeros((6, 6), np.int64)
want_a[1:3, 2:5] = 1
want_b = np.zeros((4, 4, 4), np.int64)
want_b[0:2, 1:3, 2:4] = 1
ok = empty and (np.asarray(a) == want_a).all() and (np.asarray(b) == want_b).all()

from pykokkos import _abi  # noqa: E402
raw = pk.MDRangePolicy([0, 3], [2, 5])
_abi.pkc_policy.from_address(raw.c_addr()).end[1] = 1     # as a C caller might pass it
try:
    pk.parallel_for(raw, mark2, a=a)
    c_error = "no error"
except Exception as e:
    c_error = str(e)
ok = ok and "end[1] = 1 is below begin[1] = 3" in c_error
print("OK" if ok else f"BAD empty={empty} c_error={c_error!r}\n{np.asarray(a)}\n{np.asarray(b)}")
