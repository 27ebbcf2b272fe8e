# expect: 5:55: MDRangePolicy supports 2 to 6 dimensions
import pykokkos as pk

@pk.workunit
def k(a: int, b: int, c: int, d: int, e: int, f: int, g: int, acc: pk.Acc[float]):
    acc += 1.0
