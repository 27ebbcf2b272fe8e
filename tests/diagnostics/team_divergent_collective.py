# expect: 13:16: pkc cannot move it out: its range or its closure reads a value the branch computes before it. Move it before the `if`
import pykokkos as pk


@pk.workunit
def partial(team_member: pk.TeamMember, out: pk.View1D[pk.int32], M: int):
    j: int = team_member.league_rank()
    if team_member.team_rank() == 0:
        half: int = M // 2

        def inner(i: int, acc: pk.Acc[pk.int32]):
            acc += i
        temp = pk.parallel_reduce(pk.TeamThreadRange(team_member, half), inner)
        out[j] = temp
