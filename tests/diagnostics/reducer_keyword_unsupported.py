# expect: 14:59: reducer=pk.BAnd: pkc's reductions are pk.Sum, pk.Prod, pk.Min, pk.Max
"""reducer= naming a reducer pkc does not build (PyKokkos' newer bitwise
ones): said at the launch."""
import pykokkos as pk


@pk.workunit
def band(i: int, acc: pk.Acc[pk.int64], data: pk.View1D[pk.int64]):
    acc &= data[i]


def run(data):
    n = data.shape[0]
    return pk.parallel_reduce(n, band, data=data, reducer=pk.BAnd)
