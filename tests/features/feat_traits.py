"""A @pk.functor whose Views carry the RandomAccess and Restrict traits
(pk.ViewTypeInfo), launched through its bound workunit."""
import numpy as np
import pykokkos as pk

@pk.functor(x=pk.ViewTypeInfo(trait=pk.RandomAccess), y=pk.ViewTypeInfo(trait=pk.Restrict))
class F:
    def __init__(self, x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
        self.x: pk.View1D[pk.double] = x
        self.y: pk.View1D[pk.double] = y

    @pk.workunit
    def k(self, i: int):
        self.y[i] = 2.0 * self.x[i]

x = pk.from_numpy(np.arange(4.0))
y = pk.View([4], pk.double)
pk.parallel_for(4, F(x, y).k)
print("OK" if list(np.asarray(y)) == [0.0, 2.0, 4.0, 6.0] else f"BAD {np.asarray(y)}")
