# flags: --werror
# expect: 7:5: implicit conversion: assign float64 to int32 element of View1D 'a' truncates toward zero
import pykokkos as pk

@pk.workunit
def k(i: int, a: pk.View1D[pk.int32], x: float):
    a[i] = x * i
