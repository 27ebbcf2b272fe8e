"""reducer=pk.MinMax and pk.MinMaxLoc at the launch (PyKokkos' newer
parallel_reduce): a pk.Acc accumulator becomes Kokkos' MinMaxScalar
(acc.min_val, acc.max_val) or MinMaxLocScalar (and acc.min_loc,
acc.max_loc); the result has those attributes and unpacks as a tuple
(min, max) / (min, min_loc, max, max_loc). Also the annotation form
(acc: pk.MinMax[pk.int32]) and a functor's method. Against numpy."""
import numpy as np
import pykokkos as pk


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


@pk.workunit
def minmax_int(i: int, acc: pk.MinMax[pk.int32], data: pk.View1D[pk.int32]):
    acc.min_val = min(acc.min_val, data[i])
    acc.max_val = max(acc.max_val, data[i])


@pk.functor
class Spread:
    def __init__(self, x: pk.View1D[pk.float32]):
        self.x: pk.View1D[pk.float32] = x

    @pk.workunit
    def extremes(self, i: int, acc: pk.Acc[pk.float32]):
        v: pk.float32 = self.x[i] * self.x[i] - 2.0
        if v < acc.min_val:
            acc.min_val = v
            acc.min_loc = i
        if v > acc.max_val:
            acc.max_val = v
            acc.max_loc = i


def main():
    bad = []
    small = np.array([4.0, -2.0, 8.0, -1.0])
    r = pk.parallel_reduce(pk.RangePolicy(0, small.size), minmax_float, reducer=pk.MinMax,
                           data=pk.array(small))
    lo, hi = r
    if (lo, hi) != (-2.0, 8.0) or (r.min_val, r.max_val) != (-2.0, 8.0):
        bad.append(f"MinMax {r!r}")
    r = pk.parallel_reduce(small.size, minmaxloc_float, reducer=pk.MinMaxLoc,
                           data=pk.array(small))
    if tuple(r) != (-2.0, 1, 8.0, 2) or (r.min_loc, r.max_loc) != (1, 2):
        bad.append(f"MinMaxLoc {r!r}")

    rng = np.random.default_rng(7)
    big = rng.standard_normal(200_003)
    r = pk.parallel_reduce(big.size, minmaxloc_float, reducer=pk.MinMaxLoc, data=pk.array(big))
    want = (big.min(), int(big.argmin()), big.max(), int(big.argmax()))
    if tuple(r) != want:
        bad.append(f"MinMaxLoc large {tuple(r)} != {want}")
    ints = rng.integers(-10_000, 10_000, 50_001).astype(np.int32)
    r = pk.parallel_reduce(ints.size, minmax_int, data=pk.array(ints))
    if (r.min_val, r.max_val) != (ints.min(), ints.max()) or not isinstance(r.min_val, int):
        bad.append(f"MinMax int32 {r!r}")

    x = rng.uniform(-3, 3, 10_001).astype(np.float32)
    f = Spread(pk.array(x))
    r = pk.parallel_reduce(x.size, f.extremes, reducer=pk.MinMaxLoc)
    v = x * x - np.float32(2.0)
    if not (np.isclose(r.min_val, v.min()) and r.min_loc == int(v.argmin()) and
            np.isclose(r.max_val, v.max()) and r.max_loc == int(v.argmax())):
        bad.append(f"functor MinMaxLoc {r!r}")

    try:
        pk.parallel_reduce(small.size, minmax_float, reducer=pk.MinMaxLoc, data=pk.array(small))
        bad.append("a launch with another reducer than the kernel's was accepted")
    except TypeError as e:
        if "built to reduce with pk.MinMax" not in str(e):
            bad.append(f"message: {e}")
    print("OK" if not bad else f"BAD {bad}")


main()
