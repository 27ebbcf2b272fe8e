# expect: 9:18: the accumulator 'acc' has no field 'val'; it has min_val, min_loc, max_val and max_loc
"""A pk.MinMaxLoc accumulator (Kokkos::MinMaxLocScalar) has min_val,
min_loc, max_val and max_loc; MaxLoc's acc.val names which it has."""
import pykokkos as pk


@pk.workunit
def extremes(i: int, acc: pk.Acc[pk.double], data: pk.View1D[pk.double]):
    if data[i] < acc.val:
        acc.min_val = data[i]


def run(data):
    return pk.parallel_reduce(data.shape[0], extremes, data=data, reducer=pk.MinMaxLoc)
