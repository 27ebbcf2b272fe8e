# expect: 6:15: pk.printf: unsupported conversion '%q'
# expect-only
import pykokkos as pk
@pk.workunit
def k(i: int):
    pk.printf("%q\n", i)
