"""Nested reductions over TeamThreadRange with every reducer the closure's
accumulator can name (pk.Acc, pk.Prod, pk.Max, pk.Min), once with the
reducer repeated as the call's third argument
(`pk.parallel_reduce(pk.TeamThreadRange(team, m), row, pk.Max)`), as
Kokkos' own parallel_reduce(range, lambda, Kokkos::Max<T>(r)) reads. Each
team reduces one row; results against numpy, then the outer reduction of the
row maxima with pk.Max."""
import numpy as np
import pykokkos as pk


@pk.workunit
def rows(team: pk.TeamMember, top: pk.Max[pk.double], m: int, A: pk.View2D[pk.double],
         out: pk.View2D[pk.double]):
    b: int = team.league_rank()

    def total(i: int, acc: pk.Acc[pk.double]):
        acc += A[b][i]

    def product(i: int, acc: pk.Prod[pk.double]):
        acc *= A[b][i]

    def biggest(i: int, acc: pk.Max[pk.double]):
        acc = max(acc, A[b][i])

    def smallest(i: int, acc: pk.Min[pk.double]):
        acc = min(acc, A[b][i])

    s: float = pk.parallel_reduce(pk.TeamThreadRange(team, m), total)
    p: float = pk.parallel_reduce(pk.TeamThreadRange(team, m), product)
    hi: float = pk.parallel_reduce(pk.TeamThreadRange(team, m), biggest, pk.Max)
    lo: float = pk.parallel_reduce(pk.TeamThreadRange(team, m), smallest, pk.Min)

    def store():
        out[b][0] = s
        out[b][1] = p
        out[b][2] = hi
        out[b][3] = lo

    pk.single(pk.PerTeam(team), store)
    top = max(top, hi)


league, m = 9, 17
host = np.random.default_rng(2).uniform(0.5, 1.5, (league, m))
A = pk.View([league, m], pk.double)
A[:] = host
out = pk.View([league, 4], pk.double)
top = pk.parallel_reduce(pk.TeamPolicy(league, pk.AUTO), rows, m=m, A=A, out=out)
want = np.stack([host.sum(1), host.prod(1), host.max(1), host.min(1)], axis=1)
ok = np.allclose(np.asarray(out), want, rtol=1e-13) and top == host.max()
print("OK" if ok else f"BAD {np.asarray(out) - want} {top} {host.max()}")
