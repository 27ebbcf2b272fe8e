# expect: 9:12: 2 ** 70 does not fit in a 64-bit int (the kernel's int would wrap around, Python's would not); write 2.0 ** 70 for a float
# expect: 10:23: 10 ** 19 does not fit in a 64-bit int
import pykokkos as pk


@pk.workunit
def k(i: int, p: pk.View1D[pk.int64]):
    q: int = (-1) ** 1000000000000 + 2 ** 62 + (-2) ** 63 + 10 ** 18
    p[i] = 2 ** 70 + q
    p[i] = p[i] + 1 + 10 ** 19
