# expect: 7:23: a typing.List local needs a list literal of fixed, non-zero length
import pykokkos as pk
from typing import List

@pk.workunit
def k(i: int, n: int, v: pk.View1D[float]):
    xs: List[float] = [0.0] * n
