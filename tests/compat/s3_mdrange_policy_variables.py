"""pk.MDRangePolicy(lo, hi) with its bounds in variables (a helper function
taking them): the int-annotated parameters in front of the workunit are its
MDRange indices, as PyKokkos decides from the policy at the call."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def fill(i: int, j: int, a: pk.View2D[pk.double], s: float):
    a[i][j] = s * (i * 10 + j)


@pk.workunit
def fill3(i: int, j: int, k: int, b: pk.View3D[pk.int32]):
    b[i][j][k] = i * 100 + j * 10 + k


def run(a, lo, hi, s):
    pk.parallel_for(pk.MDRangePolicy(lo, hi), fill, a=a, s=s)


def main():
    a = pk.View([4, 5], pk.double)
    run(a, [1, 0], [4, 5], 2.0)
    want = 2.0 * (np.arange(4)[:, None] * 10 + np.arange(5)[None, :])
    want[0, :] = 0.0
    b = pk.View([2, 3, 4], pk.int32)
    lo, hi = [0, 0, 0], [2, 3, 4]
    pk.parallel_for(pk.MDRangePolicy(lo, hi), fill3, b=b)
    i, j, k = np.indices((2, 3, 4))
    ok = np.array_equal(np.asarray(a), want) and np.array_equal(np.asarray(b), i * 100 + j * 10 + k)
    print("OK" if ok else f"BAD {np.asarray(a)} {np.asarray(b)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
