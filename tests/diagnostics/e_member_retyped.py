# expect-warning: 13:9: data member 'self.scale' is declared as int64 and again as float64; kernels see it as float64
# expect: 15:9: data member 'self.out' is declared as float64 and again as View1D[float64], which do not convert into each other
import pykokkos as pk


@pk.functor
class Scaler:
    def __init__(self, n: int, s: float):
        self.n: int = n
        self.scale: int = 1
        self.out: float = 0.0
        # PyKokkos takes the later annotation where the two convert
        self.scale: float = s
        # a scalar and a View do not convert into each other
        self.out: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.workunit
    def fill(self, i: int):
        self.out[i] = self.scale * i
