# expect: 5:1: @pk.classtype is not supported yet
import pykokkos as pk
import math

@pk.classtype
class P:
    def __init__(self, x: float):
        self.x: float = x
