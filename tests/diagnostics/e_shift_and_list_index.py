# expect: 13:20: shift count 64 is not less than the width of int64 (64 bits): the result is not defined in C++; use a smaller count or a wider type
# expect: 14:20: negative shift count -1 (Python raises ValueError); shift the other way: '<< 1'
# expect: 16:26: index 3 is out of range for List 'xs' of 3 elements (indices 0..2)
# expect: 17:26: index -1 is out of range for List 'xs' of 3 elements (indices 0..2; negative indices are not supported)
"""Constant shift counts C++ cannot shift by, and constant indices past a
fixed-size list: located errors (issue 11; g++ used to warn or worse)."""
from typing import List
import pykokkos as pk

@pk.workunit
def k(i: int, A: pk.View1D[pk.int64]):
    xs: List[float] = [1.0, 2.0, 3.0]
    A[i] = A[i] << 64
    A[i] = A[i] >> -1
    A[i] = A[i] << 63
    A[i] = A[i] + int(xs[3])
    A[i] = A[i] + int(xs[-1])
    A[i] = A[i] + int(xs[2])
