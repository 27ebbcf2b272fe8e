# flags: --werror
# expect: 8:5: kernel 'histogram' writes 'counts' at bins[i], which is not one element per work item
import pykokkos as pk


@pk.workunit
def histogram(i: int, counts: pk.View1D[pk.int32], bins: pk.View1D[pk.int32]):
    counts[bins[i]] += 1
