# expect-note: 12:16: pkc moved this parallel_reduce over TeamThreadRange out of the `if` at line 9, which only some threads of the team take
import pykokkos as pk


@pk.workunit
def count_rows(team_member: pk.TeamMember, out: pk.View1D[pk.int32], M: int):
    j: int = team_member.league_rank()

    if team_member.team_rank() == 0:
        def inner(i: int, acc: pk.Acc[pk.int32]):
            acc += 1
        temp = pk.parallel_reduce(pk.TeamThreadRange(team_member, M), inner)
        out[j] = temp
