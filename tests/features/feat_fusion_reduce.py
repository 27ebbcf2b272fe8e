"""Several reductions in one fused kernel (issue 9): consecutive
parallel_reduce's of a @pk.main (sum, prod, min, max; float64, int64 and
int32 accumulators) run as one kernel that computes every result in one
pass, and each result lands where the unfused dispatch puts it. Compared
with the original dispatches (PKC_FUSION=0, switched at run time in this
process): Views bitwise, reduction results within rounding; and against
numpy. Chains that must not fuse still compute the right values: a kernel
reading an earlier reduction's result, bounds that differ at run time, and
Views that alias at run time."""
import os
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Stats:
    def __init__(self, n: int, m: int, rows: int, cols: int):
        self.n: int = n
        self.m: int = m
        self.rows: int = rows
        self.cols: int = cols
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.y: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.z: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.label: pk.View1D[pk.int32] = pk.View([n], pk.int32)
        self.grid: pk.View2D[pk.double] = pk.View([rows, cols], pk.double)
        self.total: float = 0.0
        self.positives: int = 0
        self.largest: float = 0.0
        self.lowest_label: int = 0
        self.growth: float = 0.0
        self.mean: float = 0.0
        self.spread: float = 0.0
        self.grid_sum: float = 0.0
        self.grid_max: float = 0.0
        self.y_sum: float = 0.0
        self.z_sum: float = 0.0

    @pk.main
    def run(self):
        # three reductions of three kinds and two dtypes after the kernels
        # that fill their Views: one kernel
        pk.parallel_for("fill", self.n, self.fill)
        self.total = pk.parallel_reduce("total", self.n, self.sum_x)
        self.positives = pk.parallel_reduce("positives", self.n, self.count_positive)
        self.largest = pk.parallel_reduce("largest", self.n, self.max_x)
        # min of int32 labels and a product; they share no View but run over
        # the same bounds: one kernel
        self.lowest_label = pk.parallel_reduce(self.n, self.min_label)
        self.growth = pk.parallel_reduce(self.n, self.prod_factor)
        # the second reads the first's result: not fused
        self.mean = pk.parallel_reduce(self.n, self.sum_x_over_n)
        self.spread = pk.parallel_reduce(self.n, self.squared_deviation)
        # an MDRange: sum and max of a 2D grid after filling it
        pk.parallel_for(pk.MDRangePolicy([0, 0], [self.rows, self.cols]), self.fill_grid)
        self.grid_sum = pk.parallel_reduce(pk.MDRangePolicy([0, 0], [self.rows, self.cols]),
                                           self.sum_grid)
        self.grid_max = pk.parallel_reduce(pk.MDRangePolicy([0, 0], [self.rows, self.cols]),
                                           self.max_grid)
        # bounds that are other expressions: fused when equal at run time
        pk.parallel_for(self.n, self.fill_yz)
        self.y_sum = pk.parallel_reduce(self.n, self.sum_y)
        self.z_sum = pk.parallel_reduce(self.m, self.sum_z)

    @pk.workunit
    def fill(self, i: int):
        self.x[i] = ((i * 37) % 101) * 0.125 - 6.0
        self.label[i] = (i * 13) % 17 - 5

    @pk.workunit
    def sum_x(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.x[i]

    @pk.workunit
    def count_positive(self, i: int, acc: pk.Acc[pk.int64]):
        if self.x[i] > 0.0:
            acc += 1

    @pk.workunit
    def max_x(self, i: int, acc: pk.Max[pk.double]):
        acc = max(acc, self.x[i])

    @pk.workunit
    def min_label(self, i: int, acc: pk.Min[pk.int32]):
        if self.label[i] < acc:
            acc = self.label[i]

    @pk.workunit
    def prod_factor(self, i: int, acc: pk.Prod[pk.double]):
        acc *= 1.0 + 1.0e-6 * (i % 5)

    @pk.workunit
    def sum_x_over_n(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.x[i] / self.n

    @pk.workunit
    def squared_deviation(self, i: int, acc: pk.Acc[pk.double]):
        d: float = self.x[i] - self.mean
        acc += d * d

    @pk.workunit
    def fill_grid(self, i: int, j: int):
        self.grid[i][j] = ((i * 7 + j * 3) % 23) * 0.5

    @pk.workunit
    def sum_grid(self, i: int, j: int, acc: pk.Acc[pk.double]):
        acc += self.grid[i][j]

    @pk.workunit
    def max_grid(self, i: int, j: int, acc: pk.Max[pk.double]):
        acc = max(acc, self.grid[i][j] + 0.001 * i)

    @pk.workunit
    def fill_yz(self, i: int):
        self.y[i] = self.x[i] * 2.0
        self.z[i] = self.x[i] + 1.0

    @pk.workunit
    def sum_y(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.y[i] * self.z[i]

    @pk.workunit
    def sum_z(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.z[i]


RESULTS = ("total", "positives", "largest", "lowest_label", "growth", "mean", "spread",
           "grid_sum", "grid_max", "y_sum", "z_sum")
VIEWS = ("x", "y", "z", "label", "grid")


def run(fusion, n, m, rows, cols, alias=False):
    os.environ["PKC_FUSION"] = fusion
    w = Stats(n, m, rows, cols)
    if alias:
        w.z = w.y   # one View: the fused chain of fill_yz must not run
    pk.execute(pk.ExecutionSpace.Default, w)
    return ({k: np.asarray(getattr(w, k)).copy() for k in VIEWS},
            {k: getattr(w, k) for k in RESULTS})


def reference(n, m, rows, cols, alias):
    i = np.arange(n)
    x = ((i * 37) % 101) * 0.125 - 6.0
    label = (i * 13) % 17 - 5
    gi, gj = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    grid = ((gi * 7 + gj * 3) % 23) * 0.5
    y, z = x * 2.0, x + 1.0
    if alias:
        y = z = x + 1.0
    mean = float(np.sum(x / n))
    return {"total": float(x.sum()), "positives": int((x > 0.0).sum()),
            "largest": float(x.max()), "lowest_label": int(label.min()),
            "growth": float(np.prod(1.0 + 1.0e-6 * (i % 5))), "mean": mean,
            "spread": float(((x - mean) ** 2).sum()), "grid_sum": float(grid.sum()),
            "grid_max": float((grid + 0.001 * gi).max()), "y_sum": float((y * z).sum()),
            "z_sum": float(z[:m].sum())}


def close(a, b):
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def main():
    bad = []
    for n, m, rows, cols, alias in ((5000, 5000, 37, 53, False), (4099, 4000, 64, 64, False),
                                    (3001, 3001, 5, 700, True)):
        where = f"n={n} m={m} {rows}x{cols} alias={alias}"
        (fv, fr), (pv, pr) = run("1", n, m, rows, cols, alias), run("0", n, m, rows, cols, alias)
        for k in VIEWS:
            if not np.array_equal(fv[k], pv[k]):
                bad.append(f"{where}: View '{k}' differs fused vs unfused")
        ref = reference(n, m, rows, cols, alias)
        for k in RESULTS:
            if type(fr[k]) is not type(pr[k]):
                bad.append(f"{where}: '{k}' is {type(fr[k]).__name__} fused, "
                           f"{type(pr[k]).__name__} unfused")
            if not close(fr[k], pr[k]):
                bad.append(f"{where}: '{k}' {fr[k]!r} fused, {pr[k]!r} unfused")
            if not close(pr[k], ref[k]):
                bad.append(f"{where}: '{k}' {pr[k]!r}, numpy {ref[k]!r}")
    os.environ.pop("PKC_FUSION", None)
    print("BAD " + "; ".join(bad) if bad else "OK")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
