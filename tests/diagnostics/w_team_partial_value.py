# expect-warning: 19:5: 'mx' is assigned by only the threads that take the `if` at line 13, and read here by every thread of the team
# A value thread 0 computes and every thread then uses: the other threads
# hold their own mx (on GPUs the team has many threads).
import pykokkos as pk


@pk.workunit
def normalize(team: pk.TeamMember, n: int, a: pk.View2D[pk.double],
              out: pk.View2D[pk.double]):
    e: int = team.league_rank()
    mx: float = 1.0
    r: int = team.team_rank()
    if r == 0:
        for j in range(n):
            mx = max(mx, a[e][j])

    def norm(j: int):
        out[e][j] = a[e][j] / mx
    pk.parallel_for(pk.TeamThreadRange(team, n), norm)
