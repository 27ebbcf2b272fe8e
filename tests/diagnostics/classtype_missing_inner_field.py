# expect: 15:16: classtype 'Cic' has no field 'cc'
# expect-only
# A field missing in the middle of a chain is named, not reported as an
# unsupported attribute access or index.
import pykokkos as pk

@pk.classtype
class Cic:
    def __init__(self):
        self.a: int = 0

@pk.workunit
def k(i: int, out: pk.View1D[pk.int64]):
    c = Cic()
    out[i] = c.cc.a
