# expect: 7:17: field 'self.v' of classtype 'P' has type View1D[float64]; classtype fields must be scalars, fixed-size Lists of scalars or classtypes
import pykokkos as pk

@pk.classtype
class P:
    def __init__(self, n: int):
        self.v: pk.View1D[pk.double] = pk.View([n], pk.double)
