# expect: 10:5: the total of a nested pk.parallel_scan is not available
import pykokkos as pk


@pk.workunit
def k(m: pk.TeamMember, x: pk.View2D[pk.double]):
    def scan(i: int, acc: pk.Acc[pk.double], final: bool):
        acc += x[m.league_rank()][i]

    total: float = pk.parallel_scan(pk.TeamThreadRange(m, x.extent(1)), scan)
    x[m.league_rank()][0] = total
