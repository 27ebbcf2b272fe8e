"""Views of a @pk.classtype with a nested classtype field (issue 26 item 1):
Body.pos is a Vec. On both layouts (AoS: the struct nests; SoA: one View per
leaf field, the element proxy holding a nested Vec proxy): p[i].pos.x += ...,
v: Vec = p[i].pos, p[i].pos = v, a method of Vec on p[i].pos (reading and
writing self), @pk.functions taking p[i].pos by reference and by value, q: Body = p[i],
p[i] = q, methods and functions changing an element through a method of its
classtype field (self.vel.scale(...): by reference), two levels of nesting
(Cell.body.pos.x). Checked against numpy."""
import sys

import numpy as np
import pykokkos as pk


@pk.classtype
class Vec:
    def __init__(self, x: float, y: float, z: float):
        self.x: float = x
        self.y: float = y
        self.z: float = z

    @pk.function
    def norm2(self) -> float:
        return self.x * self.x + self.y * self.y + self.z * self.z

    @pk.function
    def scale(self, s: float):
        self.x *= s
        self.y *= s
        self.z *= s


@pk.classtype
class Body:
    def __init__(self, x: float, m: pk.float32):
        self.pos: Vec = Vec(x, 0.0, 0.0)
        self.vel: Vec = Vec(0.0, 0.0, 0.0)
        self.m: pk.float32 = m
        self.id: pk.int32 = 0

    @pk.function
    def kinetic(self) -> float:
        return 0.5 * self.m * self.vel.norm2()

    @pk.function
    def brake(self):
        self.vel.scale(0.5)   # changes self through a method of its field


@pk.classtype
class Cell:
    def __init__(self, x: float):
        self.body: Body = Body(x, 1.0)
        self.w: float = 1.0


@pk.function
def shift(v: Vec, d: float):
    v.y += d


@pk.function
def dot(a: Vec, b: Vec) -> float:   # by value: a proxy converts to a Vec
    return a.x * b.x + a.y * b.y + a.z * b.z


@pk.function
def stretch(b: Body):
    b.pos.scale(3.0)   # changes b: passed by reference


@pk.workunit
def nested_calls(i: int, p: pk.View1D[Body], out: pk.View1D[pk.double]):
    p[i].brake()
    stretch(p[i])
    t: Body = p[i]
    stretch(t)
    t.brake()
    out[i] = t.pos.x + t.vel.x


@pk.workunit
def push(i: int, p: pk.View1D[Body], dt: float):
    p[i].pos.x += dt * p[i].vel.x
    p[i].pos.y = p[i].pos.y + dt * p[i].vel.y
    p[i].pos.z -= dt * p[i].vel.z


@pk.workunit
def methods(i: int, p: pk.View1D[Body], out: pk.View1D[pk.double]):
    out[i] = p[i].pos.norm2() + p[i].kinetic() + dot(p[i].pos, p[i].vel)
    p[i].vel.scale(2.0)
    shift(p[i].pos, 1.5)


@pk.workunit
def copies(i: int, p: pk.View1D[Body], q: pk.View1D[Body], r: pk.View1D[Body]):
    v: Vec = p[i].pos
    v.z = v.z + 10.0
    q[i].vel = v
    q[i].pos = p[i].vel
    b: Body = p[i]
    b.id = b.id + 100
    b.pos.x = b.pos.x * 3.0
    r[p.extent(0) - 1 - i] = b


@pk.workunit
def deep(i: int, c: pk.View1D[Cell]):
    c[i].body.pos.x += c[i].w * c[i].body.vel.y
    c[i].body.vel.scale(c[i].w)


def fresh(n, lay):
    p = pk.View([n], Body, layout=lay)
    p.pos.x = np.linspace(0.0, 1.0, n)
    p.pos.y = np.arange(n) * 0.5
    p.pos.z = 1.0
    p.vel.x = np.arange(n) - 2.0
    p.vel.y = 0.25
    p.vel.z = np.arange(n) % 3
    p.m = 0.5 + np.arange(n) % 2
    p.id = np.arange(n, dtype=np.int32)
    return p


def check(what, got, want):
    if not np.allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12):
        print(f"BAD {what}: got {np.asarray(got).tolist()} want {np.asarray(want).tolist()}")
        sys.exit(1)


def main():
    n = 7
    x0, y0, z0 = np.linspace(0.0, 1.0, n), np.arange(n) * 0.5, np.ones(n)
    vx0, vy0, vz0 = np.arange(n) - 2.0, np.full(n, 0.25), (np.arange(n) % 3) * 1.0
    m0 = 0.5 + np.arange(n) % 2
    for lay in (pk.AoS, pk.SoA):
        name = "AoS" if lay is pk.AoS else "SoA"
        p = fresh(n, lay)
        pk.parallel_for(n, push, p=p, dt=0.5)
        check(f"{name} push pos.x", p.pos.x, x0 + 0.5 * vx0)
        check(f"{name} push pos.y", p.pos.y, y0 + 0.5 * vy0)
        check(f"{name} push pos.z", p.pos.z, z0 - 0.5 * vz0)
        check(f"{name} push vel.x unchanged", p.vel.x, vx0)

        p = fresh(n, lay)
        out = pk.View([n], pk.double)
        pk.parallel_for(n, methods, p=p, out=out)
        check(f"{name} norm2 + kinetic", out,
              x0**2 + y0**2 + z0**2 + 0.5 * m0 * (vx0**2 + vy0**2 + vz0**2) +
              x0 * vx0 + y0 * vy0 + z0 * vz0)
        check(f"{name} scale vel.x", p.vel.x, 2.0 * vx0)
        check(f"{name} scale vel.z", p.vel.z, 2.0 * vz0)
        check(f"{name} shift by reference", p.pos.y, y0 + 1.5)
        check(f"{name} pos.x unchanged", p.pos.x, x0)

        p = fresh(n, lay)
        pk.parallel_for(n, nested_calls, p=p, out=out)
        check(f"{name} method of a field in a method", p.vel.x, 0.5 * vx0)
        check(f"{name} method of a field in a function", p.pos.x, 3.0 * x0)
        check(f"{name} ... on a local copy", out, 9.0 * x0 + 0.25 * vx0)

        for ql in (pk.AoS, pk.SoA):
            p = fresh(n, lay)
            q = pk.View([n], Body, layout=ql)
            r = pk.View([n], Body, layout=ql)
            pk.parallel_for(n, copies, p=p, q=q, r=r)
            rev = slice(None, None, -1)
            w = f"{name}->{ql.name}"
            check(f"{w} nested copy and store vel.x", q.vel.x, x0)
            check(f"{w} nested copy and store vel.z", q.vel.z, z0 + 10.0)
            check(f"{w} nested store pos.x", q.pos.x, vx0)
            check(f"{w} nested store pos.z", q.pos.z, vz0)
            check(f"{w} other fields untouched", q.m, np.zeros(n))
            check(f"{w} whole store id", r.id, (np.arange(n) + 100)[rev])
            check(f"{w} whole store pos.x", r.pos.x, (3.0 * x0)[rev])
            check(f"{w} whole store pos.y", r.pos.y, y0[rev])
            check(f"{w} whole store vel.z", r.vel.z, vz0[rev])
            check(f"{w} whole store m", r.m, m0[rev])
            check(f"{w} source unchanged", p.pos.x, x0)

        c = pk.View([n], Cell, layout=lay)
        c.body.pos.x = x0
        c.body.vel.y = vx0
        c.body.vel.z = 1.0
        c.w = m0
        pk.parallel_for(n, deep, c=c)
        check(f"{name} two levels pos.x", c.body.pos.x, x0 + m0 * vx0)
        check(f"{name} two levels vel.y", c.body.vel.y, m0 * vx0)
        check(f"{name} two levels vel.z", c.body.vel.z, m0)
    print("OK")


if __name__ == "__main__":
    main()
