# expect: 8:1: use `import pykokkos as pk` and @pk.workunit (a bare @workunit
"""A kernel decorated through a name imported from pykokkos: reported, not left
out of the module without a word."""
import pykokkos as pk
from pykokkos import workunit


@workunit
def fill(i: int, a: pk.View1D[pk.double]):
    a[i] = 1.0
