"""Python's rules at the edges of kernel arithmetic (issue 11): integer // and
% by zero raise ZeroDivisionError after the launch (naming kernel and line),
range() with a run-time step of 0 raises ValueError, int ** negative int is
a float (2 ** -1 == 0.5), and a launch range past a View raises ValueError
before anything runs. Valid calls give numpy's results."""
import numpy as np
import pykokkos as pk


@pk.workunit
def divmod_k(i: int, q: pk.View1D[pk.int64], r: pk.View1D[pk.int64],
             a: pk.View1D[pk.int64], b: pk.View1D[pk.int64]):
    q[i] = a[i] // b[i]
    r[i] = a[i] % b[i]


@pk.workunit
def count_steps(i: int, c: pk.View1D[pk.int64], s: int):
    for j in range(0, 10, s):
        c[i] += 1


@pk.workunit
def powers(i: int, p: pk.View1D[pk.double]):
    p[i] = 2 ** -1 + 10 ** -2 * i


def expect(exc, text, fn):
    try:
        fn()
    except exc as e:
        return text in str(e)
    return False


a = np.array([7, -7, 7, -7, 5], dtype=np.int64)
b = np.array([2, 2, -2, -2, 0], dtype=np.int64)
q = np.zeros(5, dtype=np.int64)
r = np.zeros(5, dtype=np.int64)
checks = []
checks.append(expect(ZeroDivisionError, "divmod_k: integer division or modulo by zero (line",
                     lambda: pk.parallel_for(5, divmod_k, q=q, r=r, a=a, b=b)))
b[4] = 3
pk.parallel_for(5, divmod_k, q=q, r=r, a=a, b=b)
checks.append(np.array_equal(q, a // b) and np.array_equal(r, a % b))

c = np.zeros(3, dtype=np.int64)
checks.append(expect(ValueError, "range() arg 3 must not be zero",
                     lambda: pk.parallel_for(3, count_steps, c=c, s=0)))
c[:] = 0
pk.parallel_for(3, count_steps, c=c, s=3)
checks.append(np.array_equal(c, [len(range(0, 10, 3))] * 3))

p = np.zeros(4)
pk.parallel_for(4, powers, p=p)
checks.append(np.allclose(p, 0.5 + 0.01 * np.arange(4)))
checks.append(expect(ValueError, "View 'p' has extent 4",
                     lambda: pk.parallel_for(5, powers, p=p)))

print("OK" if all(checks) else f"BAD {checks}")
