# expect: 7:5: indentation error: expected an indented block after this line
# A header without a body: the next line would become its statement.
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[pk.double]):
    if i > 0:
    v[i] = 1.0
