# expect: 9:24: type 'Acc[pk.double]': write pk.Acc
"""Types named through `from pykokkos import Acc`: one error per annotation
saying how pkc reads them, and no follow-on error for the accumulator."""
import pykokkos as pk
from pykokkos import Acc


@pk.workunit
def total(i: int, acc: Acc[pk.double], a: pk.View1D[pk.double]):
    acc += a[i]
