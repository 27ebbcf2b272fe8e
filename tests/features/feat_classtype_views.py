"""Views of a @pk.classtype (issue 26): pk.View([n], Particle, layout=pk.AoS
or pk.SoA); the same kernels run on both layouts (and on a mix of them):
field updates p[i].x += ..., copies q: Particle = p[i], stores p[i] = q,
p[i] passed to @pk.functions by reference (written) and by value, methods
called on p[i] (reading and writing self), a reduction over fields. Every
result is checked against numpy."""
import sys

import numpy as np
import pykokkos as pk


@pk.classtype
class Particle:
    def __init__(self, x: float, vx: float, m: pk.float32, id: pk.int32, hits: int):
        self.x: float = x
        self.vx: float = vx
        self.m: pk.float32 = m
        self.id: pk.int32 = id
        self.hits: int = hits

    @pk.function
    def energy(self) -> float:
        return 0.5 * self.m * self.vx * self.vx

    @pk.function
    def kick(self, dv: float):
        self.vx += dv
        self.hits += 1


@pk.function
def drift(p: Particle, dt: float):
    p.x += dt * p.vx


@pk.function
def momentum(p: Particle) -> float:
    return p.m * p.vx


@pk.workunit
def push(i: int, p: pk.View1D[Particle], dt: float):
    p[i].x += dt * p[i].vx


@pk.workunit
def copy_out(i: int, p: pk.View1D[Particle], q: pk.View1D[Particle]):
    t: Particle = p[i]
    t.id = t.id + 100
    t.x = 2.0 * t.x
    q[i] = t


@pk.workunit
def reverse(i: int, p: pk.View1D[Particle], q: pk.View1D[Particle]):
    q[i] = p[p.extent(0) - 1 - i]


@pk.workunit
def calls(i: int, p: pk.View1D[Particle], out: pk.View1D[pk.double]):
    drift(p[i], 0.5)
    p[i].kick(1.0)
    out[i] = momentum(p[i]) + p[i].energy()


@pk.workunit(q=pk.ViewTypeInfo(layout=pk.SoA))
def soa_only(i: int, p: pk.View1D[Particle], q: pk.View1D[Particle]):
    q[i].vx = p[i].x


@pk.workunit
def bump(i, p, by):   # unannotated: typed from its call site (pk.View of Particle)
    p[i].hits += by


@pk.workunit
def total_energy(i: int, acc: pk.Acc[pk.double], p: pk.View1D[Particle]):
    acc += p[i].energy()


def fresh(n, layout):
    p = pk.View([n], Particle, layout=layout)
    p.x = np.linspace(0.0, 1.0, n)
    p.vx = np.arange(n) - 2.0
    p.m = 0.5 + np.arange(n) % 3
    p.id = np.arange(n, dtype=np.int32)
    p.hits = 7
    return p


def check(what, got, want):
    if not np.allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12):
        print(f"BAD {what}: got {np.asarray(got).tolist()} want {np.asarray(want).tolist()}")
        sys.exit(1)


def main():
    n = 9
    x0, vx0 = np.linspace(0.0, 1.0, n), np.arange(n) - 2.0
    m0 = (0.5 + np.arange(n) % 3).astype(np.float32).astype(float)
    for lay in (pk.AoS, pk.SoA):
        other = pk.SoA if lay is pk.AoS else pk.AoS
        name = "AoS" if lay is pk.AoS else "SoA"
        p = fresh(n, lay)
        pk.parallel_for(n, push, p=p, dt=0.25)
        check(f"{name} push x", p.x, x0 + 0.25 * vx0)
        check(f"{name} push vx unchanged", p.vx, vx0)

        for ql in (lay, other):   # both layouts of the target: 4 instantiations
            q = pk.View([n], Particle, layout=ql)
            pk.parallel_for(n, copy_out, p=p, q=q)
            check(f"{name}->{ql.name} copy x", q.x, 2.0 * (x0 + 0.25 * vx0))
            check(f"{name}->{ql.name} copy id", q.id, np.arange(n) + 100)
            check(f"{name}->{ql.name} copy hits", q.hits, np.full(n, 7))
            check(f"{name}->{ql.name} source id unchanged", p.id, np.arange(n))
            r = pk.View([n], Particle, layout=ql)
            pk.parallel_for(n, reverse, p=p, q=r)
            check(f"{name}->{ql.name} reverse vx", r.vx, vx0[::-1])
            check(f"{name}->{ql.name} reverse m", r.m, m0[::-1])

        p = fresh(n, lay)
        out = pk.View([n], pk.double)
        pk.parallel_for(n, calls, p=p, out=out)
        vx1 = vx0 + 1.0
        check(f"{name} drift by reference", p.x, x0 + 0.5 * vx0)
        check(f"{name} kick writes self", p.vx, vx1)
        check(f"{name} kick counts", p.hits, np.full(n, 8))
        check(f"{name} by value and method", out, m0 * vx1 + 0.5 * m0 * vx1 * vx1)
        e = pk.parallel_reduce(n, total_energy, p=p)
        check(f"{name} reduction", e, np.sum(0.5 * m0 * vx1 * vx1))

        b = pk.View([n], Particle, layout=lay)
        pk.parallel_for(n, bump, p=b, by=2)
        check(f"{name} unannotated parameter", b.hits, np.full(n, 2))

        q = pk.View([n], Particle, layout=pk.SoA)   # layout fixed by pk.ViewTypeInfo
        pk.parallel_for(n, soa_only, p=p, q=q)
        check(f"{name} -> fixed SoA", q.vx, x0 + 0.5 * vx0)
        try:
            pk.parallel_for(n, soa_only, p=p, q=pk.View([n], Particle, layout=pk.AoS))
            print(f"BAD {name}: an AoS View was taken for a pk.SoA parameter")
            sys.exit(1)
        except TypeError as e:
            if "soa_only: argument 'q': expected a SoA View, got AoS" not in str(e):
                print(f"BAD {name}: {e}")
                sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
