# expect: 11:9: team_barrier() is inside the closure of the parallel_for over TeamThreadRange at line 13
# A team barrier inside a TeamThreadRange closure: each thread runs the
# closure for its own iterations, so the threads never meet there.
import pykokkos as pk


@pk.workunit
def smooth(team: pk.TeamMember, n: int, a: pk.View1D[pk.double]):
    def step(j: int):
        a[j] = 2.0 * a[j]
        team.team_barrier()

    pk.parallel_for(pk.TeamThreadRange(team, n), step)
