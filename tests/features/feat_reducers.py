"""pk.Max, pk.Min and pk.Prod accumulators in parallel_reduce, against the
Python max/min/product."""
import numpy as np
import pykokkos as pk

@pk.workunit
def vmax(i: int, acc: pk.Max[pk.double], x: pk.View1D[pk.double]):
    acc = max(acc, x[i])

@pk.workunit
def vmin(i: int, acc: pk.Min[pk.double], x: pk.View1D[pk.double]):
    if x[i] < acc:
        acc = x[i]

@pk.workunit
def vprod(i: int, acc: pk.Prod[pk.double], x: pk.View1D[pk.double]):
    acc *= x[i]

x = pk.from_numpy(np.array([1.5, -2.0, 3.0, 0.5]))
r = (pk.parallel_reduce(4, vmax, x=x), pk.parallel_reduce(4, vmin, x=x), pk.parallel_reduce(4, vprod, x=x))
print("OK" if r == (3.0, -2.0, -4.5) else f"BAD {r}")
