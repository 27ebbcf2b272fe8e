"""Issue 7 s5: a @pk.workload whose @pk.main pkc cannot translate (a
try/except block) does not sink the other entities of the file; running it
with pk.execute raises RuntimeError with file:line:col of the `try`."""
import os
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Fragile:
    def __init__(self, n: int):
        self.n: int = n
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        try:
            pk.parallel_for(self.n, self.fill)
        except Exception:
            pass

    @pk.workunit
    def fill(self, i: int):
        self.x[i] = 1.0


@pk.workload
class Sturdy:
    def __init__(self, n: int):
        self.n: int = n
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.total: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.fill)
        self.total = pk.parallel_reduce(self.n, self.add)

    @pk.workunit
    def fill(self, i: int):
        self.x[i] = 3.0 * i

    @pk.workunit
    def add(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.x[i]


def where(marker):
    """'file.py:LINE:COL' of the first occurrence of marker in this file."""
    with open(__file__, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            col = line.find(marker)
            if col >= 0 and not line.lstrip().startswith(("#", '"')):
                return f"{os.path.basename(__file__)}:{ln}:{col + 1}"
    raise AssertionError(marker)


def main():
    n = 8
    s = Sturdy(n)
    pk.execute(pk.ExecutionSpace.Default, s)
    if not np.array_equal(np.asarray(s.x), 3.0 * np.arange(n)) or s.total != 84.0:
        print(f"BAD good workload: x={np.asarray(s.x).tolist()} total={s.total!r}")
        sys.exit(1)
    loc = where("try:")
    try:
        pk.execute(pk.ExecutionSpace.Default, Fragile(n))
    except RuntimeError as e:
        if loc not in str(e):
            print(f"BAD the error does not name {loc}: {str(e)[:300]!r}")
            sys.exit(1)
    else:
        print("BAD running the rejected workload raised nothing")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
