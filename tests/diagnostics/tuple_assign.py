# expect: 8:5: this assignment unpacks 3 values into 2 targets; give as many values as targets
# Tuple assignment takes as many values as targets (a, b = x, y).
import pykokkos as pk


@pk.workunit
def k(i: int, v: pk.View1D[float]):
    a, b = 1.0, 2.0, 3.0
    v[i] = a + b
