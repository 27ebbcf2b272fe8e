# expect: 4:39: unknown layout 'pk.LayoutDiagonal'; use pk.LayoutLeft or pk.LayoutRight
import pykokkos as pk

@pk.workunit(A=pk.ViewTypeInfo(layout=pk.LayoutDiagonal))
def k(i: int, A: pk.View1D[pk.double]):
    A[i] = 1.0
