# C++ keywords, macro names and clashing member names must be renamed in the
# generated C++ (pkc emit + g++ must accept this file).
import pykokkos as pk


@pk.classtype
class struct:
    def __init__(self, x: float):
        self.x: float = x

    @pk.function
    def twice(self) -> float:
        return 2.0 * self.x


@pk.workunit
def new(i: int, int: pk.View1D[pk.double], errno: float, M_PI: float, INT64_C: int):
    s = struct(errno)
    int[i] = s.twice() + M_PI + INT64_C


@pk.functor
class KOKKOS_FUNCTOR:
    def __init__(self, v: pk.View1D[pk.double]):
        self.v: pk.View1D[pk.double] = v
        self.run_tag: float = 1.0

    @pk.workunit
    def run(self, i: int):
        self.v[i] = self.run_tag


@pk.workload
class linux:
    def __init__(self, n: int):
        self.n: int = n
        self.v: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.total: float = 0.0

    @pk.workunit
    def fill(self, i: int):
        self.v[i] = 1.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.fill)
