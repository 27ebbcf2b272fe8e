# expect: 11:33: MaxLoc/MinLoc/MinMax/MinMaxLoc reductions run from Python
"""A nested MaxLoc reduction in a team kernel whose result's fields are read: one error, at the reduction."""
import pykokkos as pk
@pk.workunit
def row_argmax(m: pk.TeamMember, N: int, A: pk.View2D[pk.double], loc: pk.View1D[pk.int64]):
    r: int = m.league_rank()
    def f(j: int, acc: pk.MaxLoc[pk.double]):
        if A[r][j] > acc.val:
            acc.val = A[r][j]
            acc.loc = j
    res: pk.MaxLoc[pk.double] = pk.parallel_reduce(pk.TeamThreadRange(m, N), f)
    loc[r] = res.loc
