# expect: 13:9: field 'self.m' of classtype 'C' is a List of Lists; classtype fields may be Lists of scalars only (flatten it: self.m: List[float] = [a, b, c, d])
# expect: 14:31: List field 'self.w' of classtype 'C' needs a list literal of 1 to 64 elements, which fixes its length (self.w: List[float] = [x, y, z])
# expect: 20:14: list literals are only supported as the initializer of a typing.List local
import pykokkos as pk
from typing import List

# Fixed-size List fields of classtypes (docs/DIALECT.md 3.4): a list literal
# fixes the length; Lists of Lists and whole-List stores stay out.
@pk.classtype
class C:
    def __init__(self, x: float, xs: List[float]):
        self.v: List[float] = [x, x]
        self.m: List[List[float]] = [[x, x], [x, x]]
        self.w: List[float] = xs


@pk.workunit
def k(i: int, p: pk.View1D[C]):
    p[i].v[0] = 1.0
    p[i].v = [1.0, 2.0]
