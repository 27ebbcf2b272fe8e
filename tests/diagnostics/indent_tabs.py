# expect: 9:2: indentation error: this line's indentation matches neither
# A block indented with spaces, then a tab (TabError in Python).
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[pk.double]):
    if i > 0:
        v[i] = 1.0
	v[i] += 1.0
