"""Kernels for tests/annotate: a reduce, a scan, and one deliberate error."""
import pykokkos as pk


@pk.workunit
def dot(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double], n: int):
    if i < n and x[i] > 0.0:  # a '<' & a "quote" <b>not bold</b>
        acc += x[i] * x[i]


@pk.workunit
def prefix(i: int, acc: pk.Acc[pk.int64], final: bool,
           x: pk.View1D[pk.int64], out: pk.View1D[pk.int64]):
    acc += x[i]
    if final:
        out[i] = acc


@pk.workunit
def broken(i: int, v: pk.View1D[pk.double]):
    d = {"a": 1}


def main():
    n = 16
    x = pk.View([n], pk.double)
    total = pk.parallel_reduce(n, dot, x=x, n=n)
    print(f"<script>alert({total})</script>")
