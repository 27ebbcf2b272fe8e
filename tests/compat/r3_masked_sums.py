"""Sums whose additions a test of an int32 View guards (PageRank's dangling
nodes: `if outdeg[i] == 0: acc += rank[i]`). g++ 12 vectorized the host
reduction's partial sums for AVX-512 with the wrong mask for the second half of
the doubles, so OpenMP and Serial added other elements, silently (148.35 for
154.07 at n = 5000); pkc builds host modules for AVX2 with g++ 12."""
import numpy as np
import pykokkos as pk


@pk.workunit
def masked_sum(i: int, acc: pk.Acc[pk.double], flag: pk.View1D[pk.int32],
               x: pk.View1D[pk.double]):
    if flag[i] == 0:
        acc += x[i]


@pk.workunit
def masked_sum_2d(i: int, j: int, acc: pk.Acc[pk.double], flag: pk.View2D[pk.int32],
                  x: pk.View2D[pk.double]):
    if flag[i][j] != 1:
        acc += x[i][j]


@pk.workunit
def select_sum(i: int, acc: pk.Acc[pk.double], outdeg: pk.View1D[pk.int32],
               rank: pk.View1D[pk.float32]):
    acc += rank[i] if outdeg[i] == 0 else 0.0


bad = []
rng = np.random.default_rng(7)
for n in (100, 5000, 100003):
    flag = ((np.arange(n) % 17 == 0).astype(np.int32) ^ 1).astype(np.int32)
    x = rng.uniform(size=n)
    got = pk.parallel_reduce(n, masked_sum, flag=flag, x=x)
    want = x[flag == 0].sum()
    if abs(got - want) > 1e-9 * max(1.0, abs(want)):
        bad.append(f"1-D n={n}: {got} for {want}")
    ints = np.arange(n, dtype=np.float64)
    got = pk.parallel_reduce(n, masked_sum, flag=flag, x=ints)
    if got != ints[flag == 0].sum():
        bad.append(f"1-D integers n={n}: {got} for {ints[flag == 0].sum()}")

flag2 = (rng.uniform(size=(64, 333)) < 0.3).astype(np.int32)
x2 = rng.uniform(size=(64, 333))
got = pk.parallel_reduce(pk.MDRangePolicy([0, 0], [64, 333]), masked_sum_2d, flag=flag2, x=x2)
if abs(got - x2[flag2 != 1].sum()) > 1e-9 * x2.sum():
    bad.append(f"2-D: {got} for {x2[flag2 != 1].sum()}")

deg = rng.integers(0, 3, size=20000).astype(np.int32)
r = rng.uniform(size=20000).astype(np.float32)
got = pk.parallel_reduce(20000, select_sum, outdeg=deg, rank=r)
if abs(got - r[deg == 0].astype(np.float64).sum()) > 1e-3:
    bad.append(f"select float32: {got} for {r[deg == 0].sum()}")
print("OK" if not bad else f"BAD {bad}")
