"""Issue 22 item 8: integer edges that trapped the process. INT64_MIN // -1
and INT64_MIN % -1 (SIGFPE on x86) give numpy's int64 results (INT64_MIN and
0); ** of int64 wraps around as numpy's does (2 ** 70 == 0, 3 ** 41 as
np.power); int ** a negative int known only at run time raises ValueError
naming the kernel and line (Python's result would be a float; numpy raises
too), never 0 silently."""
import numpy as np
import pykokkos as pk


@pk.workunit
def divmod_k(i: int, q: pk.View1D[pk.int64], r: pk.View1D[pk.int64],
             a: pk.View1D[pk.int64], b: pk.View1D[pk.int64]):
    q[i] = a[i] // b[i]
    r[i] = a[i] % b[i]


@pk.workunit
def pow_k(i: int, p: pk.View1D[pk.int64], base: pk.View1D[pk.int64],
          e: pk.View1D[pk.int64]):
    p[i] = base[i] ** e[i]


def expect(exc, text, fn):
    try:
        fn()
    except exc as e:
        return text in str(e)
    return False


MIN = np.iinfo(np.int64).min
a = np.array([MIN, MIN, 7, -7, MIN + 1], dtype=np.int64)
b = np.array([-1, 1, -1, -1, -1], dtype=np.int64)
q = np.zeros(5, dtype=np.int64)
r = np.zeros(5, dtype=np.int64)
pk.parallel_for(5, divmod_k, q=q, r=r, a=a, b=b)
with np.errstate(over="ignore"):
    want_q = a // b
want_r = a % b
checks = [q.tolist() == want_q.tolist() == [MIN, MIN, -7, 7, -(MIN + 1)],
          r.tolist() == want_r.tolist() == [0, 0, 0, 0, 0]]

base = np.array([2, 3, -3, 2, 7, -1], dtype=np.int64)
e = np.array([70, 41, 41, 63, 0, 63], dtype=np.int64)
p = np.zeros(6, dtype=np.int64)
pk.parallel_for(6, pow_k, p=p, base=base, e=e)
checks.append(p.tolist() == np.power(base, e).tolist())
checks.append(p[0] == 0 and p[3] == MIN)

e[2] = -1
checks.append(expect(ValueError, "pow_k: integers to negative integer powers are not allowed",
                     lambda: pk.parallel_for(6, pow_k, p=p, base=base, e=e)))
checks.append(expect(ValueError, "(line 21)",
                     lambda: pk.parallel_for(6, pow_k, p=p, base=base, e=e)))

print("OK" if all(checks) else f"BAD {checks} q={q.tolist()} r={r.tolist()} p={p.tolist()}")
