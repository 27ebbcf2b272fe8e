"""Shifts whose count is known only at run time give numpy's results where
C++'s are undefined: a count of the width or more (or negative) shifts every
bit out (<<: 0; >>: 0, or -1 for a negative value); in range, a negative
value shifts left as its two's complement. int64, int32 and uint32 Views,
expressions and augmented assignments, against numpy's left_shift/right_shift."""
import numpy as np
import pykokkos as pk


@pk.workunit
def shifts64(i: int, a: pk.View1D[pk.int64], s: pk.View1D[pk.int64],
             left: pk.View1D[pk.int64], right: pk.View1D[pk.int64], aug: pk.View1D[pk.int64]):
    left[i] = a[i] << s[i]
    right[i] = a[i] >> s[i]
    x: int = a[i]
    x <<= s[i]
    aug[i] = x


@pk.workunit
def shifts32(i: int, a: pk.View1D[pk.int32], u: pk.View1D[pk.uint32], s: pk.View1D[pk.int32],
             left: pk.View1D[pk.int32], right: pk.View1D[pk.int32], uright: pk.View1D[pk.uint32]):
    left[i] = a[i] << s[i]
    right[i] = a[i] >> s[i]
    v: pk.uint32 = u[i]
    v >>= s[i]
    uright[i] = v


counts = np.array([0, 1, 5, 31, 32, 33, 40, 63, 64, 65, 70, 200, -1, -3], dtype=np.int64)
vals = np.array([1, -1, 5, -7, 1 << 40, -(1 << 50), 123456789, -2, 3, 9, 17, -5, 4, -4],
                dtype=np.int64)
n = counts.size
a, s = pk.array(vals), pk.array(counts)
left, right, aug = (pk.View([n], pk.int64) for _ in range(3))
pk.parallel_for(n, shifts64, a=a, s=s, left=left, right=right, aug=aug)
checks = [("<< int64", np.asarray(left), np.left_shift(vals, counts)),
          (">> int64", np.asarray(right), np.right_shift(vals, counts)),
          ("<<= int64", np.asarray(aug), np.left_shift(vals, counts))]

v32 = vals.astype(np.int32)
u32 = (vals & 0xFFFFFFFF).astype(np.uint32)
c32 = counts.astype(np.int32)
l32, r32 = pk.View([n], pk.int32), pk.View([n], pk.int32)
ur = pk.View([n], pk.uint32)
pk.parallel_for(n, shifts32, a=pk.array(v32), u=pk.array(u32), s=pk.array(c32), left=l32,
                right=r32, uright=ur)
big = (c32 < 0) | (c32 >= 32)   # numpy's uint32 >> int32 goes through int64: mask its answer
checks += [("<< int32", np.asarray(l32), np.left_shift(v32, c32)),
           (">> int32", np.asarray(r32), np.right_shift(v32, c32)),
           (">>= uint32", np.asarray(ur),
            np.where(big, 0, np.right_shift(u32, np.where(big, 0, c32).astype(np.uint32))))]
bad = [(name, got.tolist(), want.tolist()) for name, got, want in checks
       if not np.array_equal(got, want)]
print("OK" if not bad else f"BAD {bad}")
