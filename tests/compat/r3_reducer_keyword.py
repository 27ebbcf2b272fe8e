"""reducer= at the launch (PyKokkos' newer parallel_reduce): a workunit with a
pk.Acc accumulator reduces with the reducer the launch names (Sum, Prod,
Min, Max, MaxLoc, MinLoc, BAnd, BOr, LAnd, LOr), its body written for it (`if
data[i] < acc: acc = data[i]`, `acc *= data[i]`, `acc.val`/`acc.loc`, `acc &=
data[i]`, `acc = acc and data[i]`). Results against numpy."""
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


@pk.workunit
def band_int(i: int, acc: pk.Acc[pk.int64], data: pk.View1D[pk.int64]):
    acc &= data[i]


@pk.workunit
def bor_int(i: int, acc: pk.Acc[pk.int64], data: pk.View1D[pk.int64]):
    acc |= data[i]


@pk.workunit
def land_bool(i: int, acc: pk.Acc[pk.bool], data: pk.View1D[pk.uint8]):
    acc = acc and data[i]


@pk.workunit
def lor_bool(i: int, acc: pk.Acc[pk.bool], data: pk.View1D[pk.uint8]):
    acc = acc or data[i]


def flags(bits):
    v = pk.View([len(bits)], pk.uint8)
    v[:] = np.array(bits, dtype=np.uint8)
    return v


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
masks = np.array([0b1111, 0b1101, 0b0111], dtype=np.int64)
checks += [
    ("BAnd", pk.parallel_reduce(3, band_int, reducer=pk.BAnd, data=view(masks)), 0b0101),
    ("BOr", pk.parallel_reduce(3, bor_int, reducer=pk.BOr,
                               data=view(np.array([8, 5, 2], dtype=np.int64))), 0b1111),
    ("LAnd", pk.parallel_reduce(3, land_bool, reducer=pk.LAnd, data=flags([1, 1, 0])), False),
    ("LAnd all", pk.parallel_reduce(3, land_bool, reducer=pk.LAnd, data=flags([1, 1, 1])), True),
    ("LOr", pk.parallel_reduce(3, lor_bool, reducer=pk.LOr, data=flags([0, 0, 1])), True),
    ("LOr none", pk.parallel_reduce(3, lor_bool, reducer=pk.LOr, data=flags([0, 0, 0])), False),
]
bad = [c[0] for c in checks if c[1] != c[2]]
try:
    pk.parallel_reduce(ints.size, sum_int, reducer=pk.Max, data=view(ints))
    bad.append("mismatched reducer accepted")
except TypeError as e:
    if "built to reduce with pk.Sum" not in str(e):
        bad.append(f"message: {e}")
print("OK" if not bad else f"BAD {bad}")
