# expect: 19:19: 'A[1:][0]' indexes a slice of a View; pkc does not compose subscripts after a slice: index the View once (A[1:][0] is A[1, :], A[i, :][1:] is A[i, 1:])
# expect: 20:20: 'A[i, :][1:]' indexes a slice of a View
"""A subscript after a slice (A[1:][0]: row 1 of A in Python) was merged into
one subscript (A[1:, 0], a column), silently; it is refused with the one
subscript to write instead."""
import pykokkos as pk


@pk.function
def vsum(r: pk.View1D[pk.double]) -> float:
    s: float = 0.0
    for j in range(r.extent(0)):
        s += r[j]
    return s


@pk.workunit
def rows(i: int, A: pk.View2D[pk.double], out: pk.View1D[pk.double]):
    out[i] = vsum(A[1:][0])
    out[i] += vsum(A[i, :][1:])


def run(n, A, out):
    pk.parallel_for(n, rows, A=A, out=out)
