import pykokkos as pk
import numpy as np
from math import sqrt as root, pi


@pk.functor
class Stencil:
    def __init__(self, n: int, u, out):
        self.n: int = n
        self.h: np.float32 = 0.5
        self.u: pk.View2D[pk.float64] = u
        self.out: pk.View2D[pk.float64] = out
        self.label = "not data"

    @pk.function
    def at(self, i: int, j: int) -> float:
        """Clamped read."""
        ii: int = min(max(i, 0), self.n - 1)
        jj = min(max(j, 0), self.n - 1)
        return self.u[ii, jj]

    @pk.workunit
    def step(self, i: int):
        for j in range(self.n - 1, -1, -1):
            s = self.at(i - 1, j) + self.at(i + 1, j)  # a comment
            s += self.at(i, j - 1) + self.at(i, j + 1)
            self.out[i][j] = 0.25 * s * self.h + root(pi) * 0
        k = 0
        while True:
            k += 1
            if k >= 3 or k < 0:
                break
        if 0 <= i < self.u.extent(0):
            pk.printf("row %d done, k=%d\n", i, k)

    @pk.workunit
    def total(self, i: int, acc: pk.Acc[pk.float64]):
        for j in range(len(self.u)):
            acc += self.u[i, j] if self.u[i, j] > 0.0 else -self.u[i, j]


def host():
    s = Stencil(4, None, None)
    pk.parallel_for(4, s.step)
