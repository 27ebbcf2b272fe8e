# expect-warning: 8:5: kernel 'histogram' writes 'counts' at bins[i], which is not one element per work item
# expect-warning: 14:9: kernel 'spread' writes 'field' at j, which is not one element per work item
import pykokkos as pk


@pk.workunit
def histogram(i: int, counts: pk.View1D[pk.int32], bins: pk.View1D[pk.int32]):
    counts[bins[i]] += 1


@pk.workunit
def spread(i: int, field: pk.View1D[pk.double], f: pk.View1D[pk.double], n: int):
    for j in range(n):
        field[j] += f[i]
