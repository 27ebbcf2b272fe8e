# expect-warning: 15:24: 'scale' is not a kernel: pkc builds no C++ for it, so pk.parallel_for would fail at run time; add @pk.workunit on the line above 'def scale' (line 10)
# expect-note: 10:5: 'scale' is defined here without @pk.workunit
# A function passed to pk.parallel_for without @pk.workunit (issue 27): pkc
# check says where and what to add; a name the caller binds itself (run's
# parameter k) is not reported.
import pykokkos as pk



def scale(i: int, v: pk.View1D[pk.double]):
    v[i] = 2.0 * v[i]


def main(v, k):
    pk.parallel_for(8, scale, v=v)
    pk.parallel_for(8, k, v=v)
