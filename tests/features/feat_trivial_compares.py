"""Comparisons that a value's type decides, as bounds checks are written:
`u >= 0` of an unsigned index, `u > -1`, `s != 200` and `s < 1000` of an
int8, `h < 0` of a uint16, `0 <= u` with the constant first, and a
comparison that the type does not decide (`s < 100`) next to them. Python
gives each its value; the C++ compilers warn on such comparisons (and pkc
treats a warning in generated code as its own bug), so pkc writes the
decided ones as true or false. Checked against numpy."""
import numpy as np
import pykokkos as pk


@pk.workunit
def classify(i: int, u: pk.View1D[pk.uint64], u32: pk.View1D[pk.uint32],
             s: pk.View1D[pk.int8], h: pk.View1D[pk.uint16], out: pk.View1D[pk.int32]):
    c: int = 0
    if u[i] >= 0 and u[i] < 5:
        c += 1
    if u32[i] > -1:
        c += 2
    if s[i] != 200:
        c += 4
    if s[i] < 1000:
        c += 8
    if h[i] < 0:
        c += 16
    if 0 <= u[i]:
        c += 32
    if s[i] < 100:
        c += 64
    out[i] = c


n = 6
u = pk.View([n], pk.uint64)
u[:] = np.array([0, 3, 4, 5, 2**63, 2**64 - 1], dtype=np.uint64)
u32 = pk.View([n], pk.uint32)
u32[:] = np.array([0, 1, 7, 2**31, 2**32 - 2, 2**32 - 1], dtype=np.uint32)
s = pk.View([n], pk.int8)
s[:] = np.array([-128, -1, 0, 99, 100, 127], dtype=np.int8)
h = pk.View([n], pk.uint16)
h[:] = np.array([0, 1, 2, 3, 65534, 65535], dtype=np.uint16)
out = pk.View([n], pk.int32)
pk.parallel_for(n, classify, u=u, u32=u32, s=s, h=h, out=out)

U, S = np.asarray(u).astype(object), np.asarray(s).astype(int)
want = [int(0 <= U[i] < 5) * 1 + 2 + 4 + 8 + 0 + 32 + int(S[i] < 100) * 64 for i in range(n)]
got = np.asarray(out).tolist()
print("OK" if got == want else f"BAD {got} want {want}")
