"""Issue 7 s4 (regression): a @pk.classtype whose __init__(self) takes no
arguments (pkc emitted a second default constructor and dropped the other
methods) used in a kernel, with its methods."""
import sys

import numpy as np
import pykokkos as pk


@pk.classtype
class Mean:
    def __init__(self):
        self.count: int = 0
        self.total: float = 0.0

    @pk.function
    def add(self, v: float):
        self.count += 1
        self.total += v

    @pk.function
    def value(self) -> float:
        return self.total / self.count


@pk.workunit
def running_mean(i: int, x: pk.View1D[pk.double], out: pk.View1D[pk.double]):
    m: Mean = Mean()
    for j in range(i + 1):
        m.add(x[j])
    out[i] = m.value()


def main():
    n = 9
    x = pk.View([n], pk.double)
    for i in range(n):
        x[i] = 2.0 * i + 1.0
    out = pk.View([n], pk.double)
    pk.parallel_for(n, running_mean, x=x, out=out)
    xs = 2.0 * np.arange(n) + 1.0
    want = np.cumsum(xs) / np.arange(1, n + 1)
    if not np.allclose(np.asarray(out), want, rtol=1e-15):
        print(f"BAD out={np.asarray(out).tolist()} want {want.tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
