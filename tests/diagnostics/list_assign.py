# expect: 13:5: assigning List 'xs' to 'ys' would make them one list in Python
"""`ys = xs` between two typing.List locals: in Python both names become one
list; a kernel List is a fixed-size C++ array that cannot be assigned (g++
said `invalid array assignment`). A located error says how to copy."""
from typing import List
import pykokkos as pk


@pk.workunit
def smooth(i: int, a: pk.View1D[float]):
    xs: List[float] = [1.0, 2.0, 3.0]
    ys: List[float] = [0.0, 0.0, 0.0]
    ys = xs
    a[i] = ys[0] + ys[2]
