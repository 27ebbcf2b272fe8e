# flags: --fusion-report
# expect-note: 48:5: fused: 'axpy' and 'total' (lines 48-49, in main) run as one kernel
# expect-note: 50:5: fused: 'axpy' repeated by the loop of line 50 (in main) run as one kernel with an inner loop
# expect-note: 53:5: not fused: kernel 'shift' (line 22) reads 'y' at i + 1, which kernel 'axpy' (line 16) writes at i (read after write across points)
# expect-note: 54:5: not fused: the launch of 'fill' (line 54) accesses no View at the same point as 'shift', so fusing would save no memory traffic
# expect-note: 55:5: not fused: kernel 'noise' (line 36) draws random numbers, whose order fusion would change (the loop of line 55)
"""pkc check --fusion-report on host code: one note per candidate chain of
launch statements (in a row, or a loop whose body is only launches), with
the rule, the View, the kernels and the lines when it does not fuse."""
import numpy as np
import pykokkos as pk


@pk.workunit
def axpy(i: int, y: pk.View1D[pk.double], x: pk.View1D[pk.double], a: float):
    y[i] += a * x[i]


@pk.workunit
def shift(i: int, z: pk.View1D[pk.double], y: pk.View1D[pk.double]):
    if i + 1 < y.extent(0):
        z[i] = y[i + 1]


@pk.workunit
def total(i: int, acc: pk.Acc[pk.double], y: pk.View1D[pk.double]):
    acc += y[i]


@pk.workunit
def fill(i: int, w: pk.View1D[pk.double]):
    w[i] = 1.0


@pk.workunit
def noise(i: int, y: pk.View1D[pk.double], pool: pk.Random_XorShift64_Pool):
    g = pool.get_state()
    y[i] += g.drand()
    pool.free_state(g)


def main(n: int):
    x = pk.View([n], pk.double)
    y = pk.View([n], pk.double)
    z = pk.View([n], pk.double)
    w = pk.View([n], pk.double)
    pool = pk.Random_XorShift64_Pool(7)
    pk.parallel_for(n, axpy, y=y, x=x, a=2.0)
    s = pk.parallel_reduce(n, total, y=y)
    for it in range(10):
        pk.parallel_for("axpy", n, axpy, y=y, x=x, a=s)
    pk.parallel_for(n, axpy, y=y, x=x, a=0.5)
    pk.parallel_for(n, shift, z=z, y=y)
    pk.parallel_for(n, fill, w=w)
    for it in range(3):
        pk.parallel_for(n, noise, y=y, pool=pool)
    return np.asarray(y)

