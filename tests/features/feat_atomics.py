"""pk.atomic_fetch_add / atomic_increment / atomic_fetch_max / atomic_add /
atomic_compare_exchange on int32, int64 and 2-D double Views, checked
against counts."""
import numpy as np
import pykokkos as pk

@pk.workunit
def hist(i: int, h: pk.View1D[pk.int32], mx: pk.View1D[pk.int64], c: pk.View2D[pk.double]):
    old: int = pk.atomic_fetch_add(h, [i % 4], 1)
    pk.atomic_increment(h, [4])
    pk.atomic_fetch_max(mx, [0], i)
    pk.atomic_add(c, [i % 2, 0], 0.5)
    pk.atomic_compare_exchange(mx, [1], 0, 7)

h = pk.View([5], pk.int32)
mx = pk.View([2], pk.int64)
c = pk.View([2, 1], pk.double)
pk.parallel_for(100, hist, h=h, mx=mx, c=c)
ok = list(np.asarray(h)) == [25, 25, 25, 25, 100] and list(np.asarray(mx)) == [99, 7] and list(np.asarray(c)[:, 0]) == [25.0, 25.0]
print("OK" if ok else f"BAD {np.asarray(h)} {np.asarray(mx)} {np.asarray(c)}")
