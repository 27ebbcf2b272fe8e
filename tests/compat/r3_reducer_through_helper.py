"""Reductions launched through one generic helper, as upstream's
examples/pykokkos/reducers.py does: `run(name, reducer, workunit, data)`
passes `reducer=reducer` on, so no launch in the file names a kernel's
reducer. pkc reads it from the body (`acc *= x` a product, `if x > acc.val`
a MaxLoc, `acc.min_val` a MinMax, ...), and the launch checks that the
reducer given is that one. pk.Reducer types the helper's parameter. Against
numpy."""
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
    acc = max(acc, data[i])


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


@pk.workunit
def maxloc_float(i: int, acc: pk.Acc[pk.double], data: pk.View1D[pk.double]):
    if data[i] > acc.val:
        acc.val = data[i]
        acc.loc = i


@pk.workunit
def minloc_float(i, acc, data):
    if acc.val > data[i]:
        acc.val = data[i]
        acc.loc = i


@pk.workunit
def minmax_float(i: int, acc: pk.Acc[pk.double], data: pk.View1D[pk.double]):
    if data[i] < acc.min_val:
        acc.min_val = data[i]
    if data[i] > acc.max_val:
        acc.max_val = data[i]


@pk.workunit
def minmaxloc_float(i: int, acc: pk.Acc[pk.double], data: pk.View1D[pk.double]):
    if data[i] < acc.min_val:
        acc.min_val = data[i]
        acc.min_loc = i
    if data[i] > acc.max_val:
        acc.max_val = data[i]
        acc.max_loc = i


def run(reducer: pk.Reducer, workunit, data: np.ndarray):
    return pk.parallel_reduce(pk.RangePolicy(0, data.size), workunit, reducer=reducer,
                              data=pk.array(data))


rng = np.random.default_rng(5)
ints = rng.integers(1, 4, 12).astype(np.int64)
masks = rng.integers(0, 1 << 20, 9).astype(np.int64) | 0b101
fl = rng.standard_normal(1001)
table = [
    ("Sum", pk.Sum, sum_int, ints, int(ints.sum())),
    ("Prod", pk.Prod, prod_int, ints, int(np.prod(ints))),
    ("Min", pk.Min, min_float, fl, fl.min()),
    ("Max", pk.Max, max_float, fl, fl.max()),
    ("BAnd", pk.BAnd, band_int, masks, int(np.bitwise_and.reduce(masks))),
    ("BOr", pk.BOr, bor_int, masks, int(np.bitwise_or.reduce(masks))),
    ("LAnd", pk.LAnd, land_bool, np.array([1, 1, 0], dtype=np.uint8), False),
    ("LOr", pk.LOr, lor_bool, np.array([0, 0, 1], dtype=np.uint8), True),
    ("MaxLoc", pk.MaxLoc, maxloc_float, fl, (fl.max(), int(fl.argmax()))),
    ("MinLoc", pk.MinLoc, minloc_float, fl, (fl.min(), int(fl.argmin()))),
    ("MinMax", pk.MinMax, minmax_float, fl, (fl.min(), fl.max())),
    ("MinMaxLoc", pk.MinMaxLoc, minmaxloc_float, fl,
     (fl.min(), int(fl.argmin()), fl.max(), int(fl.argmax()))),
]
bad = []
for name, reducer, workunit, data, want in table:
    if not isinstance(reducer, pk.Reducer):
        bad.append(f"{name} is not a pk.Reducer")
    got = run(reducer, workunit, data)
    if (tuple(got) if isinstance(want, tuple) else got) != want:
        bad.append(f"{name}: {got!r} != {want!r}")
try:
    run(pk.Sum, prod_int, ints)
    bad.append("a product kernel launched with reducer=pk.Sum ran")
except TypeError as e:
    if "built to reduce with pk.Prod" not in str(e):
        bad.append(f"message: {e}")
print("OK" if not bad else f"BAD {bad}")
