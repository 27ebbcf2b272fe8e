# expect: 7:29: pk.lower_bound searches a rank-1 View of numbers, but 'grid' is
import pykokkos as pk


@pk.workunit
def k(i: int, grid: pk.View2D[pk.double], out: pk.View1D[pk.int64]):
    out[i] = pk.lower_bound(grid, 4, 1.0)
