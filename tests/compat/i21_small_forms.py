"""Issue 21 1.6: `acc = acc + x` on a sum accumulator (as `acc += x`); a bare
`printf(...)` in @pk.main (`from pykokkos import printf`); a workunit named
like a math function (`sin`) that calls that math function on View elements."""
import math
import subprocess
import sys

import numpy as np
import pykokkos as pk
from pykokkos import printf


@pk.workunit
def sq_sum(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double]):
    acc = acc + x[i] * x[i]


@pk.workunit
def sin(i: int, x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
    y[i] = math.sin(x[i])


@pk.workunit
def cos(i: int, x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
    y[i] += cos(x[i])


@pk.workload
class Report:
    def __init__(self, n: int):
        self.n: int = n
        self.total: float = 0.0

    @pk.main
    def run(self):
        self.total = pk.parallel_reduce(self.n, self.count)
        printf("total %d\n", int(self.total))

    @pk.workunit
    def count(self, i: int, acc: pk.Acc[pk.double]):
        acc = acc + 2.0


def child():
    pk.execute(pk.ExecutionSpace.Default, Report(21))


def main():
    n = 9
    x = pk.View([n], pk.double)
    x[:] = np.linspace(0.0, 2.0, n)
    y = pk.View([n], pk.double)
    s = pk.parallel_reduce(n, sq_sum, x=x)
    pk.parallel_for(n, sin, x=x, y=y)
    pk.parallel_for(n, cos, x=x, y=y)
    xs = np.linspace(0.0, 2.0, n)
    out = subprocess.run([sys.executable, __file__, "child"], capture_output=True, text=True)
    bad = []
    if abs(s - float(np.sum(xs * xs))) > 1e-12:
        bad.append(f"s={s}")
    if not np.allclose(np.asarray(y), np.sin(xs) + np.cos(xs)):
        bad.append(f"y={np.asarray(y).tolist()}")
    if out.returncode != 0 or out.stdout.strip().splitlines()[-1:] != ["total 42"]:
        bad.append(f"child rc={out.returncode} out={out.stdout!r} err={out.stderr[-300:]!r}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    child() if sys.argv[1:] == ["child"] else main()
