"""A TeamPolicy reduction: a TeamThreadRange reduction per row, added once per
team through pk.single(PerTeam) with nonlocal acc."""
import numpy as np
import pykokkos as pk

@pk.workunit
def rowsum(m: pk.TeamMember, acc: pk.Acc[pk.double], M: int, A: pk.View2D[pk.double]):
    e: int = m.league_rank()
    def inner(j: int, a: pk.Acc[pk.double]):
        a += A[e][j]
    s: float = pk.parallel_reduce(pk.TeamThreadRange(m, M), inner)
    def once():
        nonlocal acc
        acc += s
    pk.single(pk.PerTeam(m), once)

A = pk.from_numpy(np.arange(12.0).reshape(3, 4))
r = pk.parallel_reduce(pk.TeamPolicy(3, pk.AUTO), rowsum, M=4, A=A)
print("OK" if r == 66.0 else f"BAD {r}")
