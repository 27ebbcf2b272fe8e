# expect: 9:9: the type of field 'self.data' of classtype 'P' cannot be fixed; annotate it
import pykokkos as pk
import math

@pk.classtype
class P:
    def __init__(self, x: float, n: int):
        self.x: float = x
        self.data = [0.0] * n
