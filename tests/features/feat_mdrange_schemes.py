"""MDRange kernels give the numbers they gave under Kokkos' MDRangePolicy,
whatever scheme runs them (issue 24: rows along the contiguous index on host
backends, Kokkos' tiles for a transpose, pkc's default tile on GPUs): 2-D and
3-D parallel_for against numpy bitwise (float element-wise kernels, integer
kernels), with the default order, pk.Iterate.Right / Left, given tiles,
lower bounds that are not 0, odd extents and empty ranges; integer (and
exact float) reductions over MDRange against the same sum over a
RangePolicy; tagged workunits of a workload dispatched by @pk.main."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def stencil(i: int, j: int, a: pk.View2D[pk.double], b: pk.View2D[pk.double]):
    b[i][j] = 0.5 * a[i][j] + 0.125 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1])


@pk.workunit
def jacobi3(i: int, j: int, k: int, u: pk.View3D[pk.double], v: pk.View3D[pk.double]):
    v[i][j][k] = (u[i - 1][j][k] + u[i + 1][j][k] + u[i][j - 1][k] + u[i][j + 1][k]
                  + u[i][j][k - 1] + u[i][j][k + 1]) / 6.0


@pk.workunit
def fill3(i: int, j: int, k: int, c: pk.View3D[pk.int64]):
    c[i][j][k] = 10000 * i + 100 * j + k


@pk.workunit
def transpose(i: int, j: int, A: pk.View2D[pk.double], B: pk.View2D[pk.double]):
    B[i][j] += A[j][i]


@pk.workunit
def isum2(i: int, j: int, acc: pk.Acc[pk.int64], c: pk.View2D[pk.int64]):
    acc += c[i][j] * (i + 1) - j


@pk.workunit
def isum_flat(r: int, acc: pk.Acc[pk.int64], c: pk.View2D[pk.int64], m: int, lo0: int, lo1: int,
              w: int):
    i: int = lo0 + r // w
    j: int = lo1 + r % w
    acc += c[i][j] * (i + 1) - j


@pk.workunit
def isum3(i: int, j: int, k: int, acc: pk.Acc[pk.int64], c: pk.View3D[pk.int64]):
    acc += c[i][j][k] % 7 - 3


@pk.workunit
def fsum2(i: int, j: int, acc: pk.Acc[pk.double], a: pk.View2D[pk.double]):
    acc += a[i][j]


@pk.workunit
def fmax2(i: int, j: int, acc: pk.Max[pk.double], a: pk.View2D[pk.double]):
    acc = max(acc, a[i][j])


@pk.workload
class Tagged:
    def __init__(self, n: int, m: int):
        self.n: int = n
        self.m: int = m
        self.total: int = 0
        self.a: pk.View2D[pk.double] = pk.View([n, m], pk.double)
        self.b: pk.View2D[pk.int64] = pk.View([n, m], pk.int64)

    @pk.main
    def run(self):
        pk.parallel_for(pk.MDRangePolicy([0, 0], [self.n, self.m]), self.init_a)
        pk.parallel_for(pk.MDRangePolicy([1, 2], [self.n, self.m], [2, 3]), self.init_b)
        self.total = pk.parallel_reduce(pk.MDRangePolicy([0, 0], [self.n, self.m]), self.count)
        pk.parallel_for(pk.MDRangePolicy([0, 0], [self.n, self.m], iterate=pk.Iterate.Left),
                        self.bump)

    @pk.workunit
    def init_a(self, i: int, j: int):
        self.a[i][j] = 0.25 * i - 1.5 * j

    @pk.workunit
    def init_b(self, i: int, j: int):
        self.b[i][j] = 3 * i + j

    @pk.workunit
    def bump(self, i: int, j: int):
        self.b[i][j] += 1

    @pk.workunit
    def count(self, i: int, j: int, acc: pk.Acc[pk.int64]):
        acc += self.b[i][j] * 2 + i


bad = []


def check(name, got, want):
    if not np.array_equal(got, want):
        bad.append(name)
        print(f"BAD {name}: got {got!r} want {want!r}")


def view(a, dtype):
    v = pk.View(list(a.shape), dtype)
    np.asarray(v)[...] = a
    return v


def run_2d(n, m, rng):
    a0 = rng.standard_normal((n, m))
    a = view(a0, pk.double)
    want = np.zeros((n, m))
    want[1:-1, 1:-1] = 0.5 * a0[1:-1, 1:-1] + 0.125 * (a0[:-2, 1:-1] + a0[2:, 1:-1]
                                                      + a0[1:-1, :-2] + a0[1:-1, 2:])
    policies = {"default": pk.MDRangePolicy([1, 1], [n - 1, m - 1]),
                "Right": pk.MDRangePolicy([1, 1], [n - 1, m - 1], iterate=pk.Iterate.Right),
                "Left": pk.MDRangePolicy([1, 1], [n - 1, m - 1], iterate=pk.Iterate.Left),
                "tile 4x8": pk.MDRangePolicy([1, 1], [n - 1, m - 1], [4, 8]),
                "tile 1x1": pk.MDRangePolicy([1, 1], [n - 1, m - 1], [1, 1])}
    for name, p in policies.items():
        b = pk.View([n, m], pk.double)
        pk.parallel_for(p, stencil, a=a, b=b)
        check(f"stencil {n}x{m} {name}", np.asarray(b), want)
    # an empty range in one dimension writes nothing
    b = pk.View([n, m], pk.double)
    pk.parallel_for(pk.MDRangePolicy([1, 3], [n - 1, 3]), stencil, a=a, b=b)
    check(f"stencil {n}x{m} empty", np.asarray(b), np.zeros((n, m)))

    A0 = rng.standard_normal((m, m))
    B0 = rng.standard_normal((m, m))
    A, B = view(A0, pk.double), view(B0, pk.double)
    pk.parallel_for(pk.MDRangePolicy([0, 0], [m, m], [8, 8]), transpose, A=A, B=B)
    check(f"transpose {m}", np.asarray(B), B0 + A0.T)


def run_3d(n, rng):
    u0 = rng.standard_normal((n, n + 1, n + 2))
    u, v = view(u0, pk.double), pk.View([n, n + 1, n + 2], pk.double)
    want = np.zeros(u0.shape)
    want[1:-1, 1:-1, 1:-1] = (u0[:-2, 1:-1, 1:-1] + u0[2:, 1:-1, 1:-1] + u0[1:-1, :-2, 1:-1]
                              + u0[1:-1, 2:, 1:-1] + u0[1:-1, 1:-1, :-2]
                              + u0[1:-1, 1:-1, 2:]) / 6.0
    for name, kw in {"default": {}, "Left": {"iterate": pk.Iterate.Left},
                     "Right": {"iterate": pk.Iterate.Right}}.items():
        v = pk.View(list(u0.shape), pk.double)
        pk.parallel_for(pk.MDRangePolicy([1, 1, 1], [n - 1, n, n + 1], **kw), jacobi3, u=u, v=v)
        check(f"jacobi3 {n} {name}", np.asarray(v), want)
    c = pk.View([n, n + 1, n + 2], pk.int64)
    pk.parallel_for(pk.MDRangePolicy([1, 2, 0], [n, n + 1, n + 1], [2, 2, 4]), fill3, c=c)
    i, j, k = np.indices(u0.shape)
    want = np.where((i >= 1) & (j >= 2) & (k < n + 1), 10000 * i + 100 * j + k, 0)
    check(f"fill3 {n}", np.asarray(c), want)
    got = pk.parallel_reduce(pk.MDRangePolicy([0, 1, 2], [n, n + 1, n]), isum3, c=c)
    check(f"isum3 {n}", got, int((np.asarray(c)[0:n, 1:n + 1, 2:n] % 7 - 3).sum()))


def run_reduce(n, m, rng):
    c0 = rng.integers(-1000, 1000, (n, m))
    c = view(c0, pk.int64)
    lo0, lo1, hi0, hi1 = 2, 1, n, m - 3
    w = hi1 - lo1
    for name, kw in {"default": {}, "Left": {"iterate": pk.Iterate.Left},
                     "tile 3x5": {}}.items():
        args = ([lo0, lo1], [hi0, hi1], [3, 5]) if name == "tile 3x5" else ([lo0, lo1], [hi0, hi1])
        got = pk.parallel_reduce(pk.MDRangePolicy(*args, **kw), isum2, c=c)
        flat = pk.parallel_reduce(pk.RangePolicy(0, (hi0 - lo0) * w), isum_flat, c=c, m=m,
                                  lo0=lo0, lo1=lo1, w=w)
        i, j = np.indices((n, m))
        ref = int((c0 * (i + 1) - j)[lo0:hi0, lo1:hi1].sum())
        check(f"isum2 {name}", got, flat)
        check(f"isum2 {name} numpy", got, ref)
    check("isum2 empty", pk.parallel_reduce(pk.MDRangePolicy([3, 0], [3, m]), isum2, c=c), 0)
    a0 = rng.integers(-50, 50, (n, m)).astype(np.float64)  # integers: any order sums exactly
    a = view(a0, pk.double)
    check("fsum2", pk.parallel_reduce(pk.MDRangePolicy([0, 0], [n, m]), fsum2, a=a), a0.sum())
    a1 = view(rng.standard_normal((n, m)), pk.double)
    check("fmax2", pk.parallel_reduce(pk.MDRangePolicy([0, 0], [n, m]), fmax2, a=a1),
          np.asarray(a1).max())


def run_tagged(n, m):
    t = Tagged(n, m)
    pk.execute(pk.ExecutionSpace.Default, t)
    i, j = np.indices((n, m))
    b = np.where((i >= 1) & (j >= 2), 3 * i + j, 0)
    check("tagged init_a", np.asarray(t.a), 0.25 * i - 1.5 * j)
    check("tagged count", t.total, int((b * 2 + i).sum()))
    check("tagged bump", np.asarray(t.b), b + 1)


def main():
    rng = np.random.default_rng(24)
    for n, m in ((37, 53), (9, 130), (3, 3)):
        run_2d(n, m, rng)
    for n in (5, 13):
        run_3d(n, rng)
    run_reduce(41, 29, rng)
    run_tagged(11, 19)
    print("OK" if not bad else f"BAD {bad}")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
