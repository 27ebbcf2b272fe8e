# expect-note: 14:5: pkc inserted team_member.team_barrier() before this statement: it may read elements of 'y' that other threads of the team wrote in the parallel_for over TeamThreadRange at line 13
import pykokkos as pk


@pk.workunit
def diagonal(team_member: pk.TeamMember, y: pk.View2D[pk.int32], out: pk.View1D[pk.int32],
             N: int):
    j: int = team_member.league_rank()

    def inner_for(i: int):
        y[j][i] = i + j

    pk.parallel_for(pk.TeamThreadRange(team_member, N), inner_for)
    if team_member.team_rank() == 0:
        out[j] = y[j][j]
