# expect-warning: 11:5: device function 'clipped' can reach its end without a return; Python returns None there, pkc returns 0: end it with a return
# expect-only
"""A @pk.function that returns on some paths only: Python returns None on the
others (and the caller's store raises); pkc returns 0 there, so it says so.
A `while True:` loop without a break, and if/else returning on both sides,
are complete."""
import pykokkos as pk


@pk.function
def clipped(x: float) -> float:
    if x > 0.0:
        return x


@pk.function
def first_power(n: int) -> int:
    p: int = 1
    while True:
        if p >= n:
            return p
        p *= 2


@pk.function
def sign(x: float) -> float:
    if x < 0.0:
        return -1.0
    else:
        return 1.0


@pk.workunit
def apply(i: int, v: pk.View1D[pk.double], k: pk.View1D[pk.int64]):
    v[i] = clipped(v[i]) + sign(v[i])
    k[i] = first_power(k[i])


def run(n, v, k):
    pk.parallel_for(n, apply, v=v, k=k)
