"""The host side of pk.View: fill, element get/set, slicing as a view,
shape/extent/rank/len, copy, pk.resize."""
import numpy as np
import pykokkos as pk
v = pk.View([4, 3], pk.double)
v.fill(2.0)
v[1, 2] = 5.0
s = v[1:3, :]
s[0, 0] = 7.0
ok = v.shape == (4, 3) and v.extent(0) == 4 and v.rank() == 2 and len(v) == 4 and v[1, 2] == 5.0 and v[1, 0] == 7.0
c = v.copy()
c[0, 0] = -1.0
ok = ok and v[0, 0] == 2.0
w = pk.View([5], pk.double)
pk.resize(w, 8)
ok = ok and w.extent(0) == 8
print("OK" if ok else "BAD")
