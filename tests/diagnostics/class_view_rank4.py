# expect: 10:18: Views of classtype 'P' have rank 1 to 3
import pykokkos as pk

@pk.classtype
class P:
    def __init__(self, x: float):
        self.x: float = x

@pk.workunit
def k(i: int, p: pk.View4D[P]):
    pass
