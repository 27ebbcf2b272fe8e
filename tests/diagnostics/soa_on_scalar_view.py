# expect: 4:39: 'pk.SoA' is a layout of Views of classtypes; a View of scalars has pk.LayoutLeft or pk.LayoutRight
import pykokkos as pk

@pk.workunit(x=pk.ViewTypeInfo(layout=pk.SoA))
def k(i: int, x: pk.View1D[pk.double]):
    x[i] = 1.0
