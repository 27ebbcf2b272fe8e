"""PyKokkos' plain atomics (upstream tests/test_atomics.py): pk.atomic_add,
sub, mul, div, max, min, mod, and, or, xor, lshift, rshift update the element
and return nothing (the atomic_fetch_* forms return the old value), also
inside a @pk.function and on a 2-D View. Every thread updates one element,
so the result is the sequential one; against Python."""
import numpy as np
import pykokkos as pk


@pk.function
def bump(h: pk.View1D[pk.int32], b: int):
    pk.atomic_add(h, [b], 1)


@pk.workunit
def updates(i: int, f: pk.View1D[pk.double], n: pk.View1D[pk.int64], h: pk.View1D[pk.int32],
            g: pk.View2D[pk.double]):
    pk.atomic_max(f, [0], float(i))
    pk.atomic_min(f, [1], float(i) - 10.0)
    pk.atomic_sub(f, [2], 0.5)
    pk.atomic_or(n, [0], 1 << (i % 10))
    pk.atomic_xor(n, [1], i)
    pk.atomic_and(n, [2], ~(1 << (i % 7)))
    if i < 20:
        pk.atomic_mul(f, [3], 2.0)
        pk.atomic_lshift(n, [3], 1)
    if i < 5:
        pk.atomic_div(f, [4], 2.0)
        pk.atomic_rshift(n, [4], 1)
    if i == 7:
        pk.atomic_mod(n, [5], 7)
    bump(h, i % 4)
    pk.atomic_max(g, [i % 2, 1], float(i))


N = 64
f = pk.View([5], pk.double)
f[:] = np.array([-1.0, 0.0, 100.0, 1.0, 64.0])
n = pk.View([6], pk.int64)
n[:] = np.array([0, 0, -1, 1, 1024, 100])
h = pk.View([4], pk.int32)
g = pk.View([2, 2], pk.double)
pk.parallel_for(N, updates, f=f, n=n, h=h, g=g)

xor = 0
mask = -1
for i in range(N):
    xor ^= i
    mask &= ~(1 << (i % 7))
want_f = [N - 1.0, -10.0, 100.0 - 0.5 * N, 2.0 ** 20, 2.0]
want_n = [(1 << 10) - 1, xor, mask, 1 << 20, 1024 >> 5, 100 % 7]
checks = [("float", np.asarray(f).tolist(), want_f), ("int", np.asarray(n).tolist(), want_n),
          ("bins", np.asarray(h).tolist(), [N // 4] * 4),
          ("2-D", np.asarray(g)[:, 1].tolist(), [N - 2.0, N - 1.0])]
bad = [c for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
