"""Expressions that are odd but valid Python, and whose C++ once drew
compiler warnings (which fail the build) or gave C++'s value rather than
Python's (found by fuzzing): a left shift of a negative constant, the truth
of a product or a shift, a conditional as a condition, self-comparisons, ~
of a uint16 (numpy keeps uint16: ~5 is 65530), an unsigned compared with
False, 1e300 stored to float32 (inf, as numpy), a constant that wraps around
int64 (pkc warns). Values against Python and numpy."""
import numpy as np
import pykokkos as pk


@pk.workunit
def odd(i: int, n: int, x: float, out: pk.View1D[pk.double]):  # pkc: allow possible-race
    out[0] = (-1) << 2
    out[1] = 1.0 if (x * 0.0) or n else 0.0
    out[2] = float(not (x * 2.0))
    out[3] = 1.0 if n << 2 else 0.0
    out[4] = 1.0 if (n if x else 2) else 0.0
    out[5] = int(n < n) + 10 * int(n >= n)


@pk.workunit
def unsigned(i: int, a: pk.View1D[pk.uint16], b: pk.View1D[pk.uint64], c: pk.View1D[pk.int64]):
    c[i] = int(~a[i] < a[i]) + 2 * int(b[i] >= False)


@pk.workunit
def narrow(i: int, f: pk.View1D[pk.float], w: pk.View1D[pk.int64]):
    f[i] = 1e300
    w[i] = 9223372036854775807 + 1000  # pkc: constant-overflow warning


out = pk.View([6], pk.double)
pk.parallel_for(1, odd, n=3, x=1.5, out=out)
n, x = 3, 1.5
want = [(-1) << 2, 1.0 if (x * 0.0) or n else 0.0, float(not (x * 2.0)), 1.0 if n << 2 else 0.0,
        1.0 if (n if x else 2) else 0.0, int(n < n) + 10 * int(n >= n)]
checks = [("odd", np.asarray(out).tolist(), want)]
a0 = np.array([0, 5, 40000, 65535], dtype=np.uint16)
a = pk.View([4], pk.uint16)
a[:] = a0
b = pk.View([4], pk.uint64)
c = pk.View([4], pk.int64)
pk.parallel_for(4, unsigned, a=a, b=b, c=c)
checks.append(("unsigned", np.asarray(c).tolist(), [int(v) + 2 for v in (~a0 < a0)]))
f = pk.View([2], pk.float)
w = pk.View([2], pk.int64)
with np.errstate(over="ignore"):
    pk.parallel_for(2, narrow, f=f, w=w)
    wrapped = int(np.array([9223372036854775807], dtype=np.int64)[0] + np.int64(1000))
checks.append(("float32 inf", np.asarray(f).tolist(), [np.inf, np.inf]))
checks.append(("wraps", np.asarray(w).tolist(), [wrapped, wrapped]))
bad = [ch[0] for ch in checks if ch[1] != ch[2]]
print("OK" if not bad else f"BAD {bad} {checks}")
