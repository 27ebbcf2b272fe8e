# expect: 11:5: 'global' is not supported in kernels; pass the value as a kernel argument
# expect-only
# `global` is reported once: later uses of the name are not reported again
# as undefined.
import pykokkos as pk

counter = 0

@pk.workunit
def bump(i: int, y: pk.View1D[pk.double]):
    global counter
    counter += 1
    y[i] = counter
