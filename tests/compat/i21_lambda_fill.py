"""Issue 21 1.5: the remaining lambda forms of PyKokkos: `pk.parallel_for([label,]
n, lambda i: expr, view)` stores expr into view[i], in @pk.main and in host
code; reduce lambdas whose body is any sum that starts with the accumulator
(`acc + a - b + c`, parsed `((acc + a) - b) + c`)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Fill:
    def __init__(self, n: int, initial: int, added: int):
        self.n: int = n
        self.initial: int = initial
        self.added: int = added
        self.view: pk.View1D[pk.int32] = pk.View([n], pk.int32)
        self.total: float = 0.0

    @pk.main
    def run(self):
        y: int = 1
        pk.parallel_for("init", self.n, lambda i: self.initial, self.view)
        pk.parallel_for(self.n, lambda i: self.view[i] + self.added + y, self.view)
        self.total = pk.parallel_reduce(self.n, lambda i, acc: acc + self.view[i] - i + 2 * i)


def main():
    n = 12
    w = Fill(n, 5, 7)
    pk.execute(pk.ExecutionSpace.Default, w)
    i = np.arange(n)
    want_view = np.full(n, 5 + 7 + 1)

    out = pk.View([n], pk.double)
    c = 0.5
    pk.parallel_for(n, lambda j: c * j, out)
    s = pk.parallel_reduce(n, lambda j, acc: acc + out[j] - 1.0 + c)

    bad = []
    if not np.array_equal(np.asarray(w.view), want_view):
        bad.append(f"view={np.asarray(w.view).tolist()}")
    if w.total != float(np.sum(want_view + i)):
        bad.append(f"total={w.total}")
    if not np.allclose(np.asarray(out), 0.5 * i):
        bad.append(f"out={np.asarray(out).tolist()}")
    if abs(s - float(np.sum(0.5 * i - 0.5))) > 1e-12:
        bad.append(f"s={s}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
