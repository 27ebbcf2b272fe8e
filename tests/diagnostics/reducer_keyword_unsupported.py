# expect: 15:61: reducer=pk.MinMax: pkc's reductions are pk.Sum, pk.Prod, pk.Min, pk.Max
"""reducer= naming a reducer pkc does not build (PyKokkos' MinMax, whose
accumulator has two fields): said at the launch."""
import pykokkos as pk


@pk.workunit
def spread(i: int, acc: pk.Acc[pk.double], data: pk.View1D[pk.double]):
    if data[i] < acc:
        acc = data[i]


def run(data):
    n = data.shape[0]
    return pk.parallel_reduce(n, spread, data=data, reducer=pk.MinMax)
