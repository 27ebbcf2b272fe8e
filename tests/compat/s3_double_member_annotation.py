"""Issue 7 s3: a data member annotated twice in __init__ with the same type
(a default, then the real value; a View replaced in a branch)."""
import sys

import numpy as np
import pykokkos as pk


@pk.functor
class Scaler:
    def __init__(self, n: int, alpha: float, doubled: bool):
        self.alpha: float = 1.0
        self.alpha: float = alpha
        self.out: pk.View1D[pk.double] = pk.View([n], pk.double)
        if doubled:
            self.out: pk.View1D[pk.double] = pk.View([2 * n], pk.double)
        self.n: int = n
        self.n: int = self.out.extent(0)

    @pk.workunit
    def fill(self, i: int):
        self.out[i] = self.alpha * i


def main():
    a = Scaler(4, 2.5, True)
    b = Scaler(4, 1.0, False)
    pk.parallel_for(a.n, a.fill)
    pk.parallel_for(b.n, b.fill)
    wa = 2.5 * np.arange(8)
    wb = np.arange(4.0)
    if not np.array_equal(np.asarray(a.out), wa) or not np.array_equal(np.asarray(b.out), wb):
        print(f"BAD a={np.asarray(a.out).tolist()} b={np.asarray(b.out).tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
