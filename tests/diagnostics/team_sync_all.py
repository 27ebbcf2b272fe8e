# expect-note: 14:5: pkc inserted tm.team_barrier() before this statement
# expect-warning: 20:5: kernel 'scatter' writes 'A' at idx[i], which is not one element per work item
# expect: 28:9: parallel_for over TeamThreadRange is inside the `if` at line 25, which depends on tm.team_rank()
import pykokkos as pk


@pk.workunit
def team_for(tm: pk.TeamMember, y: pk.View2D[pk.int32], out: pk.View1D[pk.int32], N: int):
    j: int = tm.league_rank()

    def inner_for(i: int):
        y[j][i] = i + j
    pk.parallel_for(pk.TeamThreadRange(tm, N), inner_for)
    if tm.team_rank() == 0:
        out[j] = y[j][N - 1]


@pk.workunit
def scatter(i: int, A: pk.View1D[pk.double], idx: pk.View1D[pk.int32]):
    A[idx[i]] += 1.0


@pk.workunit
def bad(tm: pk.TeamMember, out: pk.View1D[pk.int32], M: int):
    if tm.team_rank() < 2:
        def inner(i: int):
            out[i] += 1
        pk.parallel_for(pk.TeamThreadRange(tm, M), inner)
