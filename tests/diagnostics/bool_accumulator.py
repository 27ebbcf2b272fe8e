# expect: 9:26: a bool accumulator cannot be reduced (Kokkos needs an int-sized value); declare 'hit: pk.Acc[int]'
"""`pk.Acc[bool]` summed with `acc += cond`: Kokkos refuses reduction values
smaller than an int (a static_assert in g++). Python's `True + True == 2`
makes pk.Acc[int] the accumulator that counts; the error says so."""
import pykokkos as pk


@pk.workunit
def any_positive(i: int, hit: pk.Acc[bool], a: pk.View1D[float]):
    hit += a[i] > 0.0
