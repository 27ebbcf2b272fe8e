import pykokkos as pk
import math
from math import sqrt, pi

@pk.workunit
def nstream(i: int, A: pk.View1D[pk.double], B: pk.View1D[pk.double], C: pk.View1D[pk.double], scalar: float):
    A[i] += B[i] + scalar * C[i]

@pk.workunit
def dot(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
    acc += x[i] * y[i]

@pk.workunit
def prefix(i: int, acc: pk.Acc[pk.int64], final: bool, x: pk.View1D[pk.int64], out: pk.View1D[pk.int64]):
    acc += x[i]
    if final:
        out[i] = acc

@pk.function
def sq(x: float) -> float:
    return x * x

@pk.workunit
def misc(i: int, M: pk.View2D[float], n: int):
    """doc"""
    s: float = 0.0
    t = 1
    for j in range(n):
        if j % 2 == 0 and not j > 5:
            s += M[i][j] * sq(math.sqrt(2.0))
        elif 0 < j < n:
            s -= M[i, j] ** 2 + pi + abs(-3) + max(1, 2, 3)
        else:
            continue
    while t < 10:
        t *= 2
        if t > 4:
            break
    M[i, 0] = s if s > 0 else -s + float(t) + M.extent(1) + len(M)
    pk.printf("%d %f\n", i, s)

@pk.functor
class F:
    def __init__(self, n: int, v):
        self.n: int = n
        self.v: pk.View1D[pk.float] = v
        self.w = 3

    @pk.function
    def g(self, x: float) -> float:
        return x + self.n

    @pk.workunit
    def run(self, i: int):
        self.v[i] = self.g(float(i)) * self.n

def host():
    pk.parallel_for(10, nstream, A=1)
