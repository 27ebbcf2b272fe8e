# expect: 15:5: assigning List 'w' to 'v' would make them one list in Python, which kernel Lists (fixed-size arrays) cannot be; copy the elements (for j in range(2): v[j] = w[j]) or use 'w' directly
# expect: 16:12: index 2 is out of range for List 'v' of 2 elements (indices 0..1)
# expect: 17:5: + needs a number here, got List[float64; 2]
import pykokkos as pk
from typing import List

@pk.classtype
class C:
    def __init__(self, x: float):
        self.v: List[float] = [x, x]

@pk.workunit
def k(i: int, p: pk.View1D[C]):
    w: List[float] = [1.0, 2.0]
    p[i].v = w
    p[i].v[2] = 1.0
    p[i].v += 1.0
