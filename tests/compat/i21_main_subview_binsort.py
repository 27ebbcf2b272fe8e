"""Issue 21 1.7: host-side subviews in @pk.main, as ExaMiniMD's binning builds
them: `self.x[lo:hi, :]` and `pk.subview(self.v, slice(lo, hi), slice(None))`
assigned to locals, passed to pk.BinOp3D / pk.BinSort and sorted in place; the
rows outside [lo, hi) stay as they were. Checked against numpy."""
import sys
from typing import List

import numpy as np
import pykokkos as pk


@pk.workload
class SubrangeBins:
    def __init__(self, x, v, lo: int, hi: int, nb: int, box: float):
        self.x: pk.View2D[pk.double] = x
        self.v: pk.View2D[pk.double] = v
        self.range_min: int = lo
        self.range_max: int = hi
        self.nb: int = nb
        self.box: float = box
        self.bin_count_1d: pk.View1D[pk.int32] = pk.View([nb * nb * nb], pk.int32)
        self.permute_vector: pk.View1D[pk.int32] = pk.View([hi - lo], pk.int32)

    @pk.main
    def run(self):
        nbin: List[int] = [self.nb, self.nb, self.nb]
        min_values: List[float] = [0.0, 0.0, 0.0]
        max_values: List[float] = [self.box, self.box, self.box]
        x_sub = self.x[self.range_min:self.range_max, :]
        binop = pk.BinOp3D(x_sub, nbin, min_values, max_values)
        sorter = pk.BinSort(x_sub, binop)
        sorter.create_permute_vector()
        self.permute_vector = sorter.get_permute_vector()
        self.bin_count_1d = sorter.get_bin_count()
        sorter.sort(x_sub)
        v_sub = pk.subview(self.v, slice(self.range_min, self.range_max), slice(None))
        sorter.sort(v_sub)


def main():
    n, lo, hi, nb, box = 200, 30, 170, 3, 6.0
    rng = np.random.default_rng(5)
    x0 = rng.uniform(0.0, box * 0.999, size=(n, 3))
    v0 = rng.normal(size=(n, 3))
    w = SubrangeBins(pk.array(x0.copy()), pk.array(v0.copy()), lo, hi, nb, box)
    pk.execute(pk.ExecutionSpace.Default, w)

    xs = x0[lo:hi]
    b = [(xs[:, d] * (nb / box)).astype(np.int64) for d in range(3)]
    key = (b[0] * nb + b[1]) * nb + b[2]
    counts = np.bincount(key, minlength=nb ** 3)
    perm = np.asarray(w.permute_vector)
    x, v = np.asarray(w.x), np.asarray(w.v)
    bad = []
    if not np.array_equal(np.asarray(w.bin_count_1d), counts):
        bad.append("bin counts")
    if sorted(perm.tolist()) != list(range(hi - lo)) or np.any(np.diff(key[perm]) < 0):
        bad.append("permutation does not sort the subrange by bin")
    if not np.array_equal(x[lo:hi], xs[perm]) or not np.array_equal(v[lo:hi], v0[lo:hi][perm]):
        bad.append("subrange rows not sorted with the permutation")
    if not np.array_equal(x[:lo], x0[:lo]) or not np.array_equal(x[hi:], x0[hi:]) \
            or not np.array_equal(v[:lo], v0[:lo]) or not np.array_equal(v[hi:], v0[hi:]):
        bad.append("rows outside the subrange changed")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
