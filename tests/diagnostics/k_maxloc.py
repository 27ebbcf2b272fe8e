# expect: 6:5: the accumulator 'acc' of a maxloc reduction is read and updated through its fields
import pykokkos as pk

@pk.workunit
def k(i: int, acc: pk.MaxLoc[pk.double], v: pk.View1D[float]):
    acc += v[i]
