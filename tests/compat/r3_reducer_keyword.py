"""reducer= at the launch (PyKokkos' newer parallel_reduce): a workunit with a
pk.Acc accumulator reduces with the reducer the launch names (Sum, Prod,
Min, Max, MaxLoc, MinLoc), its body written for it (`if data[i] < acc: acc =
data[i]`, `acc *= data[i]`, `acc.val`/`acc.loc`). Results against numpy."""
import numpy as np
import pykokkos as pk


@pk.workunit
def sum_int(i: int, acc: pk.Acc[pk.int64], data: pk.View1D[pk.int64]):
    acc += data[i]


@pk.workunit
def prod_int(i: int, acc: pk.Acc[pk.int64], data: pk.View1D[pk.int64]):
    acc *= data[i]


@pk.workunit
def min_float(i: int, acc: pk.Acc[pk.double], data: pk.View1D[pk.double]):
    if data[i] < acc:
        acc = data[i]


@pk.workunit
def max_float(i: int, acc: pk.Acc[pk.double], data: pk.View1D[pk.double]):
    if data[i] > acc:
        acc = data[i]


@pk.workunit
def maxloc_float(i: int, acc: pk.Acc[pk.double], data: pk.View1D[pk.double]):
    if data[i] > acc.val:
        acc.val = data[i]
        acc.loc = i


@pk.workunit
def minloc_float(i: int, acc: pk.Acc[pk.double], data: pk.View1D[pk.double]):
    if data[i] < acc.val:
        acc.val = data[i]
        acc.loc = i


def view(a):
    v = pk.View([a.size], pk.int64 if a.dtype == np.int64 else pk.double)
    v[:] = a
    return v


ints = np.array([1, 2, 3, 4, 5], dtype=np.int64)
fl = np.array([4.0, -2.0, 8.0, -1.0, 7.5])
checks = [
    ("Sum", pk.parallel_reduce(ints.size, sum_int, reducer=pk.Sum, data=view(ints)), 15),
    ("Prod", pk.parallel_reduce(ints.size, prod_int, reducer=pk.Prod, data=view(ints)), 120),
    ("Min", pk.parallel_reduce(pk.RangePolicy(0, fl.size), min_float, reducer=pk.Min,
                               data=view(fl)), -2.0),
    ("Max", pk.parallel_reduce(fl.size, max_float, reducer=pk.Max, data=view(fl)), 8.0),
]
ml = pk.parallel_reduce(fl.size, maxloc_float, reducer=pk.MaxLoc, data=view(fl))
nl = pk.parallel_reduce(fl.size, minloc_float, reducer=pk.MinLoc, data=view(fl))
checks += [("MaxLoc", (ml.val, ml.loc), (8.0, 2)), ("MinLoc", (nl.val, nl.loc), (-2.0, 1))]
bad = [c[0] for c in checks if c[1] != c[2]]
try:
    pk.parallel_reduce(ints.size, sum_int, reducer=pk.Max, data=view(ints))
    bad.append("mismatched reducer accepted")
except TypeError as e:
    if "built to reduce with pk.Sum" not in str(e):
        bad.append(f"message: {e}")
print("OK" if not bad else f"BAD {bad}")
