# expect: 9:5: 'for ... else' is not supported in kernels; use a flag variable
import pykokkos as pk


@pk.workunit
def k(i: int, v: pk.View1D[float]):
    for j in range(i):
        v[j] += 1.0
    else:
        v[i] = 0.0
