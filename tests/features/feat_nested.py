"""Nested parallelism: TeamThreadRange reduction over ThreadVectorRange
reductions, TeamThreadMDRange, team_barrier and pk.single, checked against
numpy."""
import numpy as np
import pykokkos as pk

@pk.workunit
def k(m: pk.TeamMember, N: int, M: int, A: pk.View3D[pk.double], out: pk.View1D[pk.double]):
    e: int = m.league_rank()
    def row(j: int, a: pk.Acc[pk.double]):
        def el(l: int, b: pk.Acc[pk.double]):
            b += A[e][j][l]
        t: float = pk.parallel_reduce(pk.ThreadVectorRange(m, M), el)
        a += t
    s: float = pk.parallel_reduce(pk.TeamThreadRange(m, N), row)
    def md(j: int, l: int):
        A[e][j][l] = 0.0
    m.team_barrier()
    pk.parallel_for(pk.TeamThreadMDRange(m, N, M), md)
    def once():
        out[e] = s
    pk.single(pk.PerTeam(m), once)

def run():
    a = np.arange(24.0).reshape(2, 3, 4)
    A = pk.from_numpy(a.copy())
    out = pk.View([2], pk.double)
    pk.parallel_for(pk.TeamPolicy(2, pk.AUTO, 2), k, N=3, M=4, A=A, out=out)
    ok = np.array_equal(np.asarray(out), a.sum(axis=(1, 2))) and not np.asarray(A).any()
    print("OK" if ok else f"BAD {np.asarray(out)}")
run()
