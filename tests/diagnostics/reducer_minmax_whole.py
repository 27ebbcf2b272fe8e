# expect: 12:18: the accumulator 'acc' of a minmax reduction is read and updated through its fields: if x < acc.min_val: acc.min_val = x (and max_val)
# expect: 13:9: the accumulator 'acc' of a minmax reduction is read and updated through its fields
# expect: 18:5: the accumulator 'best' of a maxloc reduction is read and updated through its fields: if x > best.val: best.val = x; best.loc = i
"""reducer=pk.MinMax / pk.MaxLoc make the accumulator a struct (Kokkos'
MinMaxScalar, ValLocScalar): a body written for a scalar accumulator is
told the fields (it was a C++ compiler error for MaxLoc)."""
import pykokkos as pk


@pk.workunit
def spread(i: int, acc: pk.Acc[pk.double], data: pk.View1D[pk.double]):
    if data[i] < acc:
        acc = data[i]


@pk.workunit
def peak(i: int, best: pk.Acc[pk.double], data: pk.View1D[pk.double]):
    best += data[i]


def run(data):
    n = data.shape[0]
    a = pk.parallel_reduce(n, spread, data=data, reducer=pk.MinMax)
    return a, pk.parallel_reduce(n, peak, data=data, reducer=pk.MaxLoc)
