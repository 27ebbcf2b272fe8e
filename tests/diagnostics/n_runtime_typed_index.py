# expect-note: 11:15: annotate it to build it ahead of time (a: pk.View1D[pk.double])
# expect-note: 11:18: annotate it to build it ahead of time (n: int)
# expect-note: 11:21: annotate it to build it ahead of time (m: int)
# expect-note: 11:24: annotate it to build it ahead of time (s: float)
import pykokkos as pk

# An unannotated parameter used in an index or in a range() bound is an
# integer; the note suggests int for it, not float.

@pk.workunit
def mirror(i, a, n, m, s):
    a[i] = a[n - 1 - i] * s
    for k in range(m // 2):
        a[i] += 0.0
