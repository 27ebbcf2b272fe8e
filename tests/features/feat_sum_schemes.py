"""Sums give numpy's numbers whatever runs them (issue 24): a RangePolicy
parallel_reduce whose accumulator only adds (acc += e, acc -= e) and a
TeamThreadRange sum in a team of one run in partial sums kept in registers on
host backends (pkc::range_parallel_reduce, pkc::team_thread_reduce). Integer
sums are checked exactly; float sums against math.fsum within n ulps of the
sum of magnitudes, and equal from one call to the next. Kernels with side
effects, partial and empty ranges, every length around the eight partials, a
functor's member workunit, a begin offset of the inner range, a team of two
threads (OpenMP: Kokkos' own loop), and MDRange sums (pkc::md_parallel_sum:
each row in partial sums) over 2-D and 3-D Views of both layouts are among
them."""
import math
import os
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def total(i: int, acc: pk.Acc[pk.double], a: pk.View1D[pk.double]):
    acc += a[i]


@pk.workunit
def total_i64(i: int, acc: pk.Acc[pk.int64], a: pk.View1D[pk.int64]):
    acc += a[i]


@pk.workunit
def dot_less(i: int, acc: pk.Acc[pk.double], a: pk.View1D[pk.double], b: pk.View1D[pk.double]):
    acc -= a[i] * b[i]


@pk.workunit
def count_and_double(i: int, acc: pk.Acc[pk.int64], a: pk.View1D[pk.double],
                     out: pk.View1D[pk.double]):
    out[i] = 2.0 * a[i]
    if a[i] > 0.0:
        acc += 1


@pk.workunit
def row_sums(m: pk.TeamMember, acc: pk.Acc[pk.double], M: int, A: pk.View2D[pk.double],
             rows: pk.View1D[pk.double]):
    j: int = m.league_rank()

    def inner(i: int, inner_acc: pk.Acc[pk.double]):
        inner_acc += A[j][i]

    s: float = pk.parallel_reduce(pk.TeamThreadRange(m, M), inner)

    def store():
        nonlocal acc
        rows[j] = s
        acc += s

    pk.single(pk.PerTeam(m), store)


@pk.workunit
def row_tail_i64(m: pk.TeamMember, b: int, M: int, A: pk.View2D[pk.int64],
                 rows: pk.View1D[pk.int64]):
    j: int = m.league_rank()

    def inner(i: int, inner_acc: pk.Acc[pk.int64]):
        inner_acc += A[j][i]

    s: int = pk.parallel_reduce(pk.TeamThreadRange(m, b, M), inner)

    def store():
        rows[j] = s

    pk.single(pk.PerTeam(m), store)


@pk.workunit
def total_2d(i: int, j: int, acc: pk.Acc[pk.double], A: pk.View2D[pk.double]):
    acc += A[i][j]


@pk.workunit
def total_3d_i64(i: int, j: int, k: int, acc: pk.Acc[pk.int64], U: pk.View3D[pk.int64]):
    acc += U[i][j][k]


@pk.workunit(A=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def total_2d_left(i: int, j: int, acc: pk.Acc[pk.double],
                  A: pk.View2D[pk.double]):
    acc += A[i][j]


@pk.functor
class Norm:
    def __init__(self, x: pk.View1D[pk.double]):
        self.x: pk.View1D[pk.double] = x

    @pk.workunit
    def squares(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.x[i] * self.x[i]


bad = []


def check_exact(name, got, want):
    if got != want:
        bad.append(name)
        print(f"BAD {name}: got {got!r} want {want!r}")


def check_float(name, got, terms):
    """got within len(terms) ulps of the sum of |terms| from the exact sum."""
    exact = math.fsum(terms)
    bound = max(len(terms), 1) * np.finfo(np.float64).eps * math.fsum(abs(t) for t in terms)
    if not abs(got - exact) <= bound:
        bad.append(name)
        print(f"BAD {name}: got {got!r} exact {exact!r} (bound {bound:.3g})")


def view(a, dtype):
    v = pk.View(list(a.shape), dtype)
    np.asarray(v)[...] = a
    return v


def run_range_sums(rng):
    for n in (0, 1, 7, 8, 9, 15, 16, 17, 1031, 100003):
        a0 = rng.standard_normal(n)
        a = view(a0, pk.double)
        got = pk.parallel_reduce(n, total, a=a)
        check_float(f"sum of {n}", got, a0.tolist())
        check_exact(f"sum of {n} again", pk.parallel_reduce(n, total, a=a), got)
        b, e = n // 3, n - n // 4
        check_float(f"sum [{b}, {e}) of {n}", pk.parallel_reduce(pk.RangePolicy(b, e), total, a=a),
                    a0[b:e].tolist())
        i0 = rng.integers(-2**40, 2**40, n)
        check_exact(f"int64 sum of {n}", pk.parallel_reduce(n, total_i64, a=view(i0, pk.int64)),
                    int(i0.sum()))
    n = 50001
    a0, b0 = rng.standard_normal(n), rng.standard_normal(n)
    a, b = view(a0, pk.double), view(b0, pk.double)
    check_float("acc -= a*b", pk.parallel_reduce(n, dot_less, a=a, b=b), (-(a0 * b0)).tolist())
    out = pk.View([n], pk.double)
    got = pk.parallel_reduce(pk.RangePolicy(5, n - 2), count_and_double, a=a, out=out)
    check_exact("count of positives", got, int((a0[5:n - 2] > 0).sum()))
    want = np.zeros(n)
    want[5:n - 2] = 2.0 * a0[5:n - 2]
    if not np.array_equal(np.asarray(out), want):
        bad.append("side effects of a sum")
        print("BAD side effects of a sum")
    check_float("functor squares", pk.parallel_reduce(n, Norm(a).squares), (a0 * a0).tolist())


def run_team_sums(rng):
    N, M = 67, 1029
    A0 = rng.standard_normal((N, M))
    A, rows = view(A0, pk.double), pk.View([N], pk.double)
    sizes = [pk.AUTO] + ([2] if os.environ.get("PKC_BACKEND", "openmp") == "openmp" else [])
    for size in sizes:
        got = pk.parallel_reduce(pk.TeamPolicy(N, size), row_sums, M=M, A=A, rows=rows)
        for j in (0, 1, N // 2, N - 1):
            check_float(f"team {size}: row {j}", float(np.asarray(rows)[j]), A0[j].tolist())
        check_float(f"team {size}: total", got, A0.ravel().tolist())
    I0 = rng.integers(-2**40, 2**40, (N, M))
    I, irows = view(I0, pk.int64), pk.View([N], pk.int64)
    for start in (0, 3, M - 1, M):
        pk.parallel_for(pk.TeamPolicy(N, pk.AUTO), row_tail_i64, b=start, M=M, A=I, rows=irows)
        if not np.array_equal(np.asarray(irows), I0[:, start:].sum(axis=1)):
            bad.append(f"int64 row sums from {start}")
            print(f"BAD int64 row sums from {start}")


def run_mdrange_sums(rng):
    for shape in ((1, 1), (3, 7), (9, 17), (129, 1031)):
        A0 = rng.standard_normal(shape)
        A = view(A0, pk.double)
        pol = pk.MDRangePolicy([0, 0], list(shape))
        got = pk.parallel_reduce(pol, total_2d, A=A)
        check_float(f"2-D sum {shape}", got, A0.ravel().tolist())
        check_exact(f"2-D sum {shape} again", pk.parallel_reduce(pol, total_2d, A=A), got)
        b = (shape[0] // 3, shape[1] // 4)
        check_float(f"2-D sum from {b} of {shape}",
                    pk.parallel_reduce(pk.MDRangePolicy(list(b), list(shape)), total_2d, A=A),
                    A0[b[0]:, b[1]:].ravel().tolist())
        L = pk.View(list(shape), pk.double, layout=pk.LayoutLeft)
        np.asarray(L)[...] = A0
        check_float(f"2-D sum of a LayoutLeft View {shape}",
                    pk.parallel_reduce(pol, total_2d_left, A=L), A0.ravel().tolist())
    U0 = rng.integers(-2**40, 2**40, (13, 9, 37))
    U = view(U0, pk.int64)
    check_exact("3-D int64 sum", pk.parallel_reduce(pk.MDRangePolicy([0, 0, 0], [13, 9, 37]),
                                                    total_3d_i64, U=U), int(U0.sum()))
    check_exact("3-D int64 sum, part",
                pk.parallel_reduce(pk.MDRangePolicy([2, 1, 5], [13, 8, 30]), total_3d_i64, U=U),
                int(U0[2:, 1:8, 5:30].sum()))
    check_exact("3-D int64 sum, empty",
                pk.parallel_reduce(pk.MDRangePolicy([2, 1, 5], [13, 1, 30]), total_3d_i64, U=U), 0)


def main():
    rng = np.random.default_rng(7)
    run_range_sums(rng)
    run_team_sums(rng)
    run_mdrange_sums(rng)
    print("OK" if not bad else f"BAD {bad}")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
