"""A classtype argument a @pk.function changes only through methods is passed
by reference, as Python passes objects: f(p) calling p.kick(), g(b) calling
b.pos.kick() (a method of a classtype field), and a method changing self
through its field's method (self.pos.kick()); locals, no Views. Checked
against the closed form."""
import numpy as np
import pykokkos as pk


@pk.classtype
class P:
    def __init__(self, x: float):
        self.x: float = x

    @pk.function
    def kick(self, dv: float):
        self.x += dv


@pk.classtype
class B:
    def __init__(self, x: float):
        self.pos: P = P(x)

    @pk.function
    def push(self):
        self.pos.kick(10.0)


@pk.function
def f(p: P):
    p.kick(1.0)


@pk.function
def g(b: B):
    b.pos.kick(100.0)


@pk.workunit
def k(i: int, out: pk.View1D[pk.double]):
    q: P = P(1.0 * i)
    f(q)
    b: B = B(1.0 * i)
    g(b)
    b.push()
    out[i] = q.x + 1000.0 * b.pos.x


out = pk.View([4], pk.double)
pk.parallel_for(4, k, out=out)
want = (np.arange(4) + 1.0) + 1000.0 * (np.arange(4) + 110.0)
got = np.asarray(out)
print("OK" if np.array_equal(got, want) else f"BAD {got.tolist()} want {want.tolist()}")
