"""Module-level constants in kernels: their values, also when a constant is
named like a math constant (e = elementary charge, pi reassigned to 3 by a
user, tau) next to math.pi and math.e themselves; int constants in float
expressions and float constants in int ones. Checked against numpy."""
import math

import numpy as np
import pykokkos as pk

e = 1.602176634e-19     # elementary charge, not Euler's number
tau = 0.25              # a relaxation time
N_CELLS = 8
SCALE = 2.5


@pk.workunit
def charges(i: int, q: pk.View1D[pk.double], t: pk.View1D[pk.double]):
    q[i] = e * i
    t[i] = tau * N_CELLS + math.pi * i + math.e


@pk.workunit
def cells(i: int, c: pk.View1D[pk.int64]):
    c[i] = int(SCALE * i) + N_CELLS


n = 5
q = np.zeros(n)
t = np.zeros(n)
c = np.zeros(n, dtype=np.int64)
pk.parallel_for(n, charges, q=q, t=t)
pk.parallel_for(n, cells, c=c)
i = np.arange(n)
ok = (np.allclose(q, 1.602176634e-19 * i, rtol=1e-15, atol=0)
      and np.allclose(t, 0.25 * 8 + math.pi * i + math.e)
      and np.array_equal(c, (2.5 * i).astype(np.int64) + 8))
print("OK" if ok else f"BAD q={q} t={t} c={c}")
