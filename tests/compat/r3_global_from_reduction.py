"""A module-global time step a driver function sets from a reduction
(`global DT; DT = 0.5 / pk.parallel_reduce(...)`, or through a local), read
by a kernel at each launch: true division gives a float whatever the
reduction returns, so the global has one type. Against numpy."""
import numpy as np
import pykokkos as pk

DT = 0.0


@pk.workunit
def advance(i: int, u: pk.View1D[pk.double]):
    u[i] = u[i] + DT


@pk.workunit
def umax(i: int, acc: pk.Max[pk.double], u: pk.View1D[pk.double]):
    acc = max(acc, u[i])


def step(u, n):
    global DT
    DT = 0.5 / pk.parallel_reduce(n, umax, u=u)
    pk.parallel_for(n, advance, u=u)


def step_via_local(u, n):
    global DT
    smax = pk.parallel_reduce(n, umax, u=u)
    DT = 1.0 / smax
    pk.parallel_for(n, advance, u=u)


n = 8
host = np.linspace(1.0, 2.0, n)
u = pk.View([n], pk.double)
u[:] = host
want = host.copy()
for k in range(3):
    step(u, n)
    want += 0.5 / want.max()
    step_via_local(u, n)
    want += 1.0 / want.max()
print("OK" if np.allclose(np.asarray(u), want, rtol=1e-14) else f"BAD {np.asarray(u)} {want}")
