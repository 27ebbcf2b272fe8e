# expect: 11:15: parameter 'xs' is a List, whose length pkc cannot know from the annotation
from typing import List
import pykokkos as pk

# A List parameter of a @pk.function has no length in its annotation: one
# located error at the parameter (before: index-out-of-range errors for a
# List of 0 elements at every use and at every call).


@pk.function
def total(xs: List[float]) -> float:
    return xs[0] + xs[1]


@pk.workunit
def k(i: int, out: pk.View1D[pk.double]):
    ys: List[float] = [1.0, 2.0]
    out[i] = total(ys)
