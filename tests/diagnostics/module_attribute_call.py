# expect: 7:12: 'helpers' is the module kernel_helpers, which pkc does not read in kernels
import pykokkos as pk
import kernel_helpers as helpers

@pk.workunit
def k(i: int, v: pk.View1D[float]):
    v[i] = helpers.twice(v[i])
