import pykokkos as pk
import math


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


if __name__ == "__main__":
    n = 100
    a = pk.View([n], pk.double)
    pk.parallel_for(n, nstream, A=a, B=a, C=a, scalar=2.0)
    print({"host": [x for x in range(3)]})
