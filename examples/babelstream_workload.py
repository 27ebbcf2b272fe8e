"""BabelStream (copy, mul, add, triad, dot) in the ClassStyWithMain style.

    pkc build examples/babelstream_workload.py
    python3 examples/babelstream_workload.py [N [NUMTIMES]]   (default N = 2**22, 20 times)

The @pk.main method runs the NUMTIMES iterations, accumulating each kernel's
time into a member (pk.Timer, pk.fence) and leaving the last dot product in
`self.total`. Python then checks the arrays and the dot product against
BabelStream's gold values (same recurrence on scalars, NUMTIMES times).
"""
# test-args: 100000 5
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class BabelStream:
    def __init__(self, N: int, num_times: int):
        self.N: int = N
        self.num_times: int = num_times
        self.scalar: float = 0.4
        self.a: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.b: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.c: pk.View1D[pk.double] = pk.View([N], pk.double)
        self.total: float = 0.0
        self.t_copy: float = 0.0
        self.t_mul: float = 0.0
        self.t_add: float = 0.0
        self.t_triad: float = 0.0
        self.t_dot: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for("init", self.N, self.init_arrays)
        pk.fence()
        timer = pk.Timer()
        for k in range(self.num_times):
            timer.reset()
            pk.parallel_for("copy", self.N, self.copy)
            pk.fence()
            self.t_copy += timer.seconds()
            timer.reset()
            pk.parallel_for("mul", self.N, self.mul)
            pk.fence()
            self.t_mul += timer.seconds()
            timer.reset()
            pk.parallel_for("add", self.N, self.add)
            pk.fence()
            self.t_add += timer.seconds()
            timer.reset()
            pk.parallel_for("triad", self.N, self.triad)
            pk.fence()
            self.t_triad += timer.seconds()
            timer.reset()
            self.total = pk.parallel_reduce("dot", self.N, self.dot)
            self.t_dot += timer.seconds()

    @pk.workunit
    def init_arrays(self, i: int):
        self.a[i] = 0.1
        self.b[i] = 0.2
        self.c[i] = 0.0

    @pk.workunit
    def copy(self, i: int):
        self.c[i] = self.a[i]

    @pk.workunit
    def mul(self, i: int):
        self.b[i] = self.scalar * self.c[i]

    @pk.workunit
    def add(self, i: int):
        self.c[i] = self.a[i] + self.b[i]

    @pk.workunit
    def triad(self, i: int):
        self.a[i] = self.b[i] + self.scalar * self.c[i]

    @pk.workunit
    def dot(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.a[i] * self.b[i]


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 22
    num_times = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    w = BabelStream(N, num_times)
    pk.execute(pk.ExecutionSpace.Default, w)
    for k, moved in (("copy", 2), ("mul", 2), ("add", 3), ("triad", 3), ("dot", 2)):
        t = getattr(w, "t_" + k) / num_times
        print(f"babelstream_workload: {k:5s} mean {t * 1e3:.6f} ms ({moved * 8.0 * N / t / 1e9:.2f} GB/s)")

    ga, gb, gc = 0.1, 0.2, 0.0
    for _ in range(num_times):
        gc = ga
        gb = 0.4 * gc
        gc = ga + gb
        ga = gb + 0.4 * gc
    gold_sum = ga * gb * N
    eps = np.finfo(np.float64).eps * 100.0
    bad = []
    for name, v, g in (("a", w.a, ga), ("b", w.b, gb), ("c", w.c, gc)):
        err = float(np.abs(np.asarray(v) - g).sum()) / N / abs(g)
        if err > eps:
            bad.append(f"{name}: relative error {err:.3g}")
    err_sum = abs((w.total - gold_sum) / gold_sum)
    if err_sum > 1e-8:
        bad.append(f"dot {w.total!r}, expected {gold_sum!r}")
    if bad:
        print(f"babelstream_workload: verification FAILED ({'; '.join(bad)})")
        sys.exit(1)
    print(f"babelstream_workload: verification PASSED (N={N}, {num_times} times, "
          f"dot = {w.total:.12g}, relative error {err_sum:.1e})")


if __name__ == "__main__":
    main()
