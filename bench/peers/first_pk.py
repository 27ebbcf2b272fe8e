"""One kernel for bench/peers/run.py's first-call rows (pkc): nstream, as in
examples/nstream.py. run.py copies this file into a fresh directory for the
cold-build row and uses it in place (module cached in first_pk.pk/) for the
warm row."""
import pykokkos as pk


@pk.workunit
def nstream(i: int, A: pk.View1D[pk.double], B: pk.View1D[pk.double],
            C: pk.View1D[pk.double], scalar: float):
    A[i] += B[i] + scalar * C[i]


def run_nstream(A, B, C, scalar):
    pk.parallel_for("nstream", pk.RangePolicy(0, A.extent(0)), nstream, A=A, B=B, C=C, scalar=scalar)
