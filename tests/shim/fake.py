# Source of the hand-written fake module (fake_module.cpp). The shim tests
# copy this file next to fake.pk/ so that kernel lookup works as for a real
# pkc-built module. Its SHA-256 is compiled into the module's descriptor.
import pykokkos as pk


@pk.workunit
def nstream(i: int, A: pk.View1D[pk.double], B: pk.View1D[pk.double],
            C: pk.View1D[pk.double], scalar: float):
    A[i] += B[i] + scalar * C[i]


@pk.workunit
def noop(i: int):
    pass


@pk.workunit
def dot_sum(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double]):
    acc += x[i]


@pk.workunit
def count_pos(i: int, acc: pk.Acc[int], v: pk.View1D[int]):
    if v[i] > 0:
        acc += 1


@pk.workunit
def prefix(i: int, acc: pk.Acc[pk.double], final: bool,
           x: pk.View1D[pk.double], out: pk.View1D[pk.double]):
    acc += x[i]
    if final:
        out[i] = acc


@pk.workunit
def fill2d(i: int, M: pk.View2D[pk.double], k: int):
    for j in range(M.extent(1)):
        M[i][j] = i * 10 + j + k


@pk.functor
class Axpy:
    def __init__(self, a: float, x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
        self.a: float = a
        self.x: pk.View1D[pk.double] = x
        self.y: pk.View1D[pk.double] = y

    @pk.workunit
    def run(self, i: int):
        self.y[i] = self.a * self.x[i] + self.y[i]
