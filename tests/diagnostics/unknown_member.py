# expect: 12:21: functor 'F' has no data member 'self.scale'
import pykokkos as pk
import math

@pk.functor
class F:
    def __init__(self, v):
        self.v: pk.View1D[float] = v

    @pk.workunit
    def run(self, i: int):
        self.v[i] = self.scale
