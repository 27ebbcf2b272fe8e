# expect: 4:13: 'n' is not a View; pk.ViewTypeInfo applies to Views only
import pykokkos as pk

@pk.functor(n=pk.ViewTypeInfo(layout=pk.LayoutLeft))
class F:
    def __init__(self, n: int):
        self.n: int = n

    @pk.workunit
    def work(self, i: int):
        pass
