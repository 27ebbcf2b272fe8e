# expect: 12:64: accumulates with pk.Sum (pk.Acc) but the reduction names pk.Max
import pykokkos as pk


@pk.workunit
def k(team: pk.TeamMember, acc: pk.Max[pk.double], m: int, A: pk.View2D[pk.double]):
    b: int = team.league_rank()

    def row(i: int, rsum: pk.Acc[pk.double]):
        rsum += A[b][i]

    r: float = pk.parallel_reduce(pk.TeamThreadRange(team, m), row, pk.Max)

    def fold():
        nonlocal acc
        acc = max(acc, r)

    pk.single(pk.PerTeam(team), fold)
