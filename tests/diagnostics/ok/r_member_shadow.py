# A local or closure parameter named like a functor member must not hide the
# member: self.n is emitted as this->n where a local n exists.
import pykokkos as pk


@pk.functor
class Shadow:
    def __init__(self, v: pk.View1D[pk.double], n: int):
        self.v: pk.View1D[pk.double] = v
        self.n: int = n

    @pk.workunit
    def run(self, i: int):
        n: float = 2.0
        self.v[i] = n + self.n
