"""Kernel fusion in @pk.main (issue 9): chains pkc fuses ahead of time give
bitwise the same results as the original dispatches (PKC_FUSION=0, switched
at run time in this process), and chains that must not fuse still compute
the right values: a stencil reading neighbours of what the previous kernel
wrote, a transposed read, an indirect write, an atomic histogram read by a
later kernel, a reduction whose result bounds the next kernel, Views that
alias at run time and bounds that differ at run time; kernels that share only
a row of a 2D View (syrk's scale and update) are not fused (no profit)."""
import os
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Chains:
    def __init__(self, n: int, reps: int, m: int):
        self.n: int = n
        self.m: int = m
        self.reps: int = reps
        self.s: float = 0.5
        self.a: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.b: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.c: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.u: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.idx: pk.View1D[pk.int32] = pk.View([n], pk.int32)
        self.hist: pk.View1D[pk.int32] = pk.View([8], pk.int32)
        self.seen: pk.View1D[pk.int32] = pk.View([n], pk.int32)
        self.t: pk.View2D[pk.double] = pk.View([m, m], pk.double)
        self.tt: pk.View2D[pk.double] = pk.View([m, m], pk.double)
        self.rows: pk.View2D[pk.double] = pk.View([m, m], pk.double)
        self.dot: float = 0.0
        self.count: int = 0

    @pk.main
    def run(self):
        # identity chain + one reduction: fused
        pk.parallel_for(self.n, self.init)
        pk.parallel_for(self.n, self.scale)
        self.dot = pk.parallel_reduce(self.n, self.dot_ab)
        # repeated chain: fused with an inner loop (tiles on CPUs)
        for r in range(self.reps):
            pk.parallel_for(self.n, self.triad)
            pk.parallel_for(self.n, self.copy_back)
        # neighbour read after write: not fused
        pk.parallel_for(self.n, self.smooth_src)
        pk.parallel_for(self.n - 1, self.smooth)
        # indirect write, then a read: not fused
        pk.parallel_for(self.n, self.scatter)
        pk.parallel_for(self.n, self.gather_seen)
        # atomic histogram, then a kernel reading it: not fused
        pk.parallel_for(self.n, self.histogram)
        pk.parallel_for(8, self.hist_double)
        # a reduction whose result bounds the next kernel: not fused
        self.count = pk.parallel_reduce(self.n, self.count_small)
        pk.parallel_for(self.count, self.mark)
        # transposed read after write: not fused
        pk.parallel_for("fill", pk.MDRangePolicy([0, 0], [self.m, self.m]), self.fill_t)
        pk.parallel_for("transpose", pk.MDRangePolicy([0, 0], [self.m, self.m]), self.transpose)
        # row i of `rows` only (loops over j): legal, not fused (profit)
        pk.parallel_for(self.m, self.row_init)
        pk.parallel_for(self.m, self.row_add)
        # bounds other expressions: fused when equal at run time
        pk.parallel_for(self.n, self.init_u)
        pk.parallel_for(self.m, self.bump_u)

    @pk.workunit
    def init(self, i: int):
        self.a[i] = 1.0 + i % 7
        self.b[i] = 2.0 - i % 3
        self.c[i] = 0.25 * (i % 5)

    @pk.workunit
    def scale(self, i: int):
        self.b[i] = self.s * self.b[i] + self.a[i]

    @pk.workunit
    def dot_ab(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.a[i] * self.b[i]

    @pk.workunit
    def triad(self, i: int):
        self.a[i] = self.b[i] + self.s * self.c[i]

    @pk.workunit
    def copy_back(self, i: int):
        self.c[i] = 0.5 * self.a[i]

    @pk.workunit
    def smooth_src(self, i: int):
        self.u[i] = self.a[i] * 2.0

    @pk.workunit
    def smooth(self, i: int):
        self.b[i] = self.u[i] + self.u[i + 1]

    @pk.workunit
    def scatter(self, i: int):
        self.idx[i] = (i * 7) % self.n
        self.seen[(i * 7) % self.n] = i

    @pk.workunit
    def gather_seen(self, i: int):
        self.c[i] = self.c[i] + self.seen[i]

    @pk.workunit
    def histogram(self, i: int):
        pk.atomic_add(self.hist, [i % 8], 1)

    @pk.workunit
    def hist_double(self, k: int):
        self.hist[k] = self.hist[k] * 2

    @pk.workunit
    def count_small(self, i: int, acc: pk.Acc[pk.int64]):
        if self.a[i] < 3.0:
            acc += 1

    @pk.workunit
    def mark(self, i: int):
        self.u[i] = -1.0

    @pk.workunit
    def fill_t(self, i: int, j: int):
        self.t[i][j] = i * 100.0 + j

    @pk.workunit
    def transpose(self, i: int, j: int):
        self.tt[i][j] = self.t[j][i]

    @pk.workunit
    def row_init(self, i: int):
        for j in range(self.m):
            self.rows[i][j] = self.t[i][j] * 0.5

    @pk.workunit
    def row_add(self, i: int):
        for j in range(i + 1):
            self.rows[i][j] += self.tt[i][j] + j

    @pk.workunit
    def init_u(self, i: int):
        self.u[i] = self.u[i] + 1.0

    @pk.workunit
    def bump_u(self, i: int):
        self.u[i] = self.u[i] * 3.0


def run(fusion, n, reps, m, alias=False):
    os.environ["PKC_FUSION"] = fusion
    w = Chains(n, reps, m)
    if alias:
        w.c = w.b   # b and c are one View: the fused chains must not run
    pk.execute(pk.ExecutionSpace.Default, w)
    return {k: np.asarray(getattr(w, k)).copy() for k in
            ("a", "b", "c", "u", "idx", "hist", "seen", "t", "tt", "rows")} | {
            "dot": w.dot, "count": w.count}


def main():
    bad = []
    for n, m, alias in ((5000, 37, False), (4099, 4099, False), (3001, 11, True)):
        fused, plain = run("1", n, 4, min(m, 64), alias), run("0", n, 4, min(m, 64), alias)
        for k in plain:
            if not np.array_equal(np.asarray(fused[k]), np.asarray(plain[k])):
                bad.append(f"n={n} m={m} alias={alias}: '{k}' differs fused vs unfused")
        # a few values against closed forms
        a0 = 1.0 + np.arange(n) % 7
        if plain["count"] != int((plain["a"] < 3.0).sum()) and not alias:
            bad.append(f"count {plain['count']}")
        if not np.array_equal(plain["hist"], 2 * np.bincount(np.arange(n) % 8, minlength=8)):
            bad.append("histogram")
        if not np.array_equal(plain["tt"], plain["t"].T):
            bad.append("transpose")
        cols = np.arange(plain["t"].shape[0], dtype=np.float64)
        if not np.array_equal(plain["rows"], 0.5 * plain["t"] + np.tril(plain["tt"] + cols)):
            bad.append("rows")
        if not alias:
            b1 = 0.5 * (2.0 - np.arange(n) % 3) + a0
            if abs(plain["dot"] - float(a0 @ b1)) > 1e-9 * abs(plain["dot"]):
                bad.append("dot")
    os.environ.pop("PKC_FUSION", None)
    print("BAD " + "; ".join(bad) if bad else "OK")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
