# expect: 13:9: cannot assign to 'self.total': functor data is read-only in
import pykokkos as pk
import math

@pk.functor
class F:
    def __init__(self, n: int, v):
        self.total: float = 0.0
        self.v: pk.View1D[float] = v

    @pk.workunit
    def run(self, i: int):
        self.total = self.v[i]
