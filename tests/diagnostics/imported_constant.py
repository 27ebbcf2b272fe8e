# expect: 10:12: name 'RHO' is imported from consts, which pkc does not read
"""A kernel reading a constant imported from a sibling module (ExaMiniMD's
types_h pattern): said so, with what to do."""
import pykokkos as pk
from consts import RHO


@pk.workunit
def density(i: int, a: pk.View1D[pk.double]):
    a[i] = RHO * i
