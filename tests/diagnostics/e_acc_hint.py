# flags: --strict-types
# expect: 8:10: cannot infer the type of parameter 'total' of 'k' from its call sites; annotate it (total: pk.Acc[pk.double])
import pykokkos as pk

# never called in this file, and 'total' is not a name PyKokkos code gives an
# accumulator: the hint comes from the body, which updates it
@pk.workunit
def k(i, total, v: pk.View1D[pk.double]):
    total += v[i]
