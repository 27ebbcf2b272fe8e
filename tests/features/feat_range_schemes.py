"""RangePolicy kernels give the numbers they gave under Kokkos::parallel_for,
whatever runs them (issue 24): kernels whose work items write only their own
elements run in blocks the compiler vectorizes on host backends, a plain copy
c[i] = a[i] runs as memcpy (host) or cudaMemcpyAsync (GPU). Checked bitwise
against numpy: copies of several dtypes over whole and partial ranges, odd and
empty ranges, a gather, element-wise float arithmetic, a kernel that reads
and writes its own element and row, a functor's members; and the same kernels
with Views that alias each other (then Kokkos::parallel_for runs them)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def copy(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i]


@pk.workunit
def copy_i32(i: int, src: pk.View1D[pk.int32], dst: pk.View1D[pk.int32]):
    dst[i] = src[i]


@pk.workunit
def gather(i: int, x: pk.View1D[pk.double], idx: pk.View1D[pk.int64], y: pk.View1D[pk.double]):
    y[i] = x[idx[i]]


@pk.workunit
def axpy(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double], c: pk.View1D[pk.double],
         s: float):
    c[i] = a[i] * s + b[i]


@pk.workunit
def bump_own(i: int, a: pk.View1D[pk.double], idx: pk.View1D[pk.int64], b: pk.View1D[pk.double]):
    a[i] = a[i] * 2.0 + b[idx[i]]


@pk.workunit
def prefix_rows(i: int, A: pk.View2D[pk.int64], m: int):
    for j in range(1, m):
        A[i][j] += A[i][j - 1]


@pk.functor
class Scale:
    def __init__(self, x: pk.View1D[pk.double], y: pk.View1D[pk.double], s: float):
        self.x: pk.View1D[pk.double] = x
        self.y: pk.View1D[pk.double] = y
        self.s: float = s

    @pk.workunit
    def scale(self, i: int):
        self.y[i] = self.x[i] * self.s


bad = []


def check(name, got, want):
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype or not np.array_equal(got, want):
        bad.append(name)
        print(f"BAD {name}: got {got!r} want {want!r}")


def view(a, dtype):
    v = pk.View(list(a.shape), dtype)
    np.asarray(v)[...] = a
    return v


def run_copies(rng):
    for n in (1, 7, 1031, 100003):
        a0 = rng.standard_normal(n)
        a, c = view(a0, pk.double), pk.View([n], pk.double)
        pk.parallel_for(n, copy, a=a, c=c)
        check(f"copy {n}", c, a0)
        c0 = rng.standard_normal(n)
        c = view(c0, pk.double)
        b, e = n // 3, n - n // 4
        pk.parallel_for(pk.RangePolicy(b, e), copy, a=a, c=c)
        want = c0.copy()
        want[b:e] = a0[b:e]
        check(f"copy [{b}, {e}) of {n}", c, want)
        pk.parallel_for(pk.RangePolicy(e, e), copy, a=a, c=c)  # empty
        check(f"copy empty of {n}", c, want)
    s0 = rng.integers(-2**31, 2**31 - 1, 4097, dtype=np.int32)
    s, d = view(s0, pk.int32), pk.View([4097], pk.int32)
    pk.parallel_for(4097, copy_i32, src=s, dst=d)
    check("copy int32", d, s0)
    # the same View as source and destination: nothing changes
    pk.parallel_for(4097, copy_i32, src=d, dst=d)
    check("copy onto itself", d, s0)


def run_elementwise(rng):
    n = 50001
    x0 = rng.standard_normal(n)
    idx0 = rng.integers(0, n, n)
    x, idx, y = view(x0, pk.double), view(idx0, pk.int64), pk.View([n], pk.double)
    pk.parallel_for(n, gather, x=x, idx=idx, y=y)
    check("gather", y, x0[idx0])
    a0, b0 = rng.standard_normal(n), rng.standard_normal(n)
    a, b, c = view(a0, pk.double), view(b0, pk.double), pk.View([n], pk.double)
    pk.parallel_for(pk.RangePolicy(3, n - 5), axpy, a=a, b=b, c=c, s=1.75)
    want = np.zeros(n)
    want[3:n - 5] = a0[3:n - 5] * 1.75 + b0[3:n - 5]
    # nvcc contracts a[i] * s + b[i] to one fused multiply-add (rounded once, as
    # CuPy's and Numba's CUDA kernels are): within an ulp of the terms, not of
    # the result, where they cancel; host backends match bitwise
    got = np.asarray(c)
    scale = np.abs(a0 * 1.75) + np.abs(b0)
    if not (np.all(np.abs(got - want) <= 2.0 ** -52 * scale) and got[:3].tolist() == [0.0] * 3
            and got[n - 5:].tolist() == [0.0] * 5):
        bad.append("axpy")
        print(f"BAD axpy: got {got!r} want {want!r}")
    # c aliases a: each item still reads its own element before writing it
    pk.parallel_for(n, axpy, a=a, b=b, c=a, s=-0.5)
    check("axpy in place", a, a0 * -0.5 + b0)
    a = view(a0, pk.double)
    pk.parallel_for(n, bump_own, a=a, idx=idx, b=b)
    check("bump_own", a, a0 * 2.0 + b0[idx0])
    # b aliases a (not apart: Kokkos::parallel_for runs it); with idx[i] = i every
    # item reads only its own element, so the result is exact on any backend
    a = view(a0, pk.double)
    own = view(np.arange(n, dtype=np.int64), pk.int64)
    pk.parallel_for(n, bump_own, a=a, idx=own, b=a)
    check("bump_own aliased", a, a0 * 2.0 + a0)
    A0 = rng.integers(-100, 100, (37, 23))
    A = view(A0, pk.int64)
    pk.parallel_for(37, prefix_rows, A=A, m=23)
    check("prefix_rows", A, np.cumsum(A0, axis=1))
    x1, y1 = view(x0, pk.double), pk.View([n], pk.double)
    pk.parallel_for(n, Scale(x1, y1, 3.5).scale)
    check("functor scale", y1, x0 * 3.5)


def main():
    rng = np.random.default_rng(2024)
    run_copies(rng)
    run_elementwise(rng)
    print("OK" if not bad else f"BAD {bad}")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
