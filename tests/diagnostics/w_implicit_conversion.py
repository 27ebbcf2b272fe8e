# expect-warning: 8:5: implicit conversion: assign float64 to int32 element of View1D 'a' truncates toward zero
# expect-warning: 9:5: implicit conversion: the result of += is float64, stored to int64 local 'n'
import pykokkos as pk

@pk.workunit
def k(i: int, a: pk.View1D[pk.int32], x: float):
    n: int = 0
    a[i] = x * i
    n += 0.5
