# expect: 13:5: workunit 'scale' in this file is also defined as a workunit at line 17
# expect: 17:5: workunit 'scale' in this file is also defined as a workunit at line 13
# expect: 21:5: @pk.function 'half' in this file is also defined as a functor at line 26
# expect: 26:7: functor 'half' in this file is also defined as a @pk.function at line 21
"""Two definitions that become one C++ name: Python keeps the later one,
the generated C++ can keep neither silently (g++ said `redefinition of
struct`). Both are errors, each naming the other's line."""
import pykokkos as pk

N = 10

@pk.workunit
def scale(i: int, a: pk.View1D[float]):
    a[i] = 2.0 * a[i]

@pk.workunit
def scale(i: int, a: pk.View1D[float]):
    a[i] = 3.0 * a[i]

@pk.function
def half(x: float) -> float:
    return 0.5 * x


@pk.functor
class half:
    def __init__(self, a: pk.View1D[float]):
        self.a: pk.View1D[float] = a

    @pk.workunit
    def run(self, i: int):
        self.a[i] = 1.0
