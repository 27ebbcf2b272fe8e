# expect: 11:9: team_barrier() is inside the loop at line 10, which depends on team_member.team_rank() (or another per-thread value), so only some threads of the team reach it
import pykokkos as pk


@pk.workunit
def staggered(team_member: pk.TeamMember, out: pk.View1D[pk.int32]):
    # a loop whose trip count differs between threads cannot be split:
    # threads would wait at different barriers
    j: int = team_member.league_rank()
    for s in range(team_member.team_rank()):
        team_member.team_barrier()
        out[j] += s
