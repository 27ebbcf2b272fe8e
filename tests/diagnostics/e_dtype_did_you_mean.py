# expect: 7:28: unknown View element type 'pk.doubel' (did you mean 'pk.double'?)
# expect: 7:43: unknown type 'pk.flaot32' (did you mean 'pk.float32'?)
# A misspelled dtype gets the closest spelling pkc knows (issue 27).
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[pk.doubel], a: pk.flaot32):
    v[i] = a
