# expect: 12:14: data member 'n' of workload 'Sweep' is also defined as a @pk.function at line 28
# expect: 28:9: @pk.function 'n' of workload 'Sweep' is also defined as a data member at line 12
# expect: 20:9: workunit 'step' of workload 'Sweep' is also defined as a workunit at line 24
# expect: 24:9: workunit 'step' of workload 'Sweep' is also defined as a workunit at line 20
# expect: 37:9: method 'get' of classtype 'Pair' is also defined as a method at line 40
# expect: 40:9: method 'get' of classtype 'Pair' is also defined as a method at line 37
import pykokkos as pk

@pk.workload
class Sweep:
    def __init__(self, n: int):
        self.n: int = n
        self.a: pk.View1D[float] = pk.View([n], float)

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.step)

    @pk.workunit
    def step(self, i: int):
        self.a[i] = 1.0

    @pk.workunit
    def step(self, i: int):
        self.a[i] = 2.0

    @pk.function
    def n(self) -> int:
        return 1


@pk.classtype
class Pair:
    def __init__(self, x: float):
        self.x: float = x

    def get(self) -> float:
        return self.x

    def get(self) -> float:
        return 2.0 * self.x
