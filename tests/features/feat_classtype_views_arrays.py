"""Views of a @pk.classtype with fixed-size List fields (issue 26 item 1):
`self.v: List[float] = [vx, vy, vz]` (length from the literal). AoS: a C
array member `double v[3]`; SoA: one View per component. In kernels, on both
layouts: p[i].v[d] read, assigned and updated (+=) with constant and run-time
d, methods reading and writing self.v[d], q: Cell = p[i] and p[i] = q (the
arrays copied), a List field of a nested classtype (p[i].body.f[d]), a List
of pk.int32, a rank-2 View, a local classtype value's List field. Checked against numpy."""
import sys
from typing import List

import numpy as np
import pykokkos as pk


@pk.classtype
class Body:
    def __init__(self, m: float):
        self.m: float = m
        self.f: List[float] = [0.0, 0.0]


@pk.classtype
class Cell:
    def __init__(self, x: float):
        self.v: List[float] = [x, 0.0, 0.0]
        self.id: pk.int32 = 0
        self.nb: List[pk.int32] = [-1, -1, -1, -1]
        self.body: Body = Body(1.0)

    @pk.function
    def speed2(self) -> float:
        s: float = 0.0
        for d in range(3):
            s += self.v[d] * self.v[d]
        return s

    @pk.function
    def kick(self, d: int, dv: float):
        self.v[d] += dv


@pk.function
def reflect(c: Cell, d: int):
    c.v[d] = -c.v[d]


@pk.workunit
def update(i: int, p: pk.View1D[Cell], out: pk.View1D[pk.double], dt: float):
    for d in range(3):
        p[i].v[d] += dt * d
    p[i].v[0] = p[i].v[0] * 2.0
    p[i].kick(1, 0.5)
    reflect(p[i], 2)
    p[i].nb[i % 4] = p[i].id + 1
    p[i].body.f[1] += p[i].v[1]
    out[i] = p[i].speed2()


@pk.workunit
def copies(i: int, p: pk.View1D[Cell], q: pk.View1D[Cell]):
    t: Cell = p[i]
    t.v[1] = t.v[1] + 100.0
    t.nb[0] = 7
    t.body.f[0] = t.v[0]
    q[p.extent(0) - 1 - i] = t


@pk.workunit
def grid(i: int, g: pk.View2D[Cell]):
    for j in range(g.extent(1)):
        for d in range(3):
            g[i, j].v[d] += 10.0 * i + j + 0.5 * d
        g[i, j].body.f[1] = g[i, j].v[2]


@pk.workunit
def local(i: int, out: pk.View1D[pk.double]):
    c: Cell = Cell(1.0 * i)
    c.kick(2, 3.0)
    out[i] = c.speed2() + c.nb[3]


def check(what, got, want):
    if not np.allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12):
        print(f"BAD {what}: got {np.asarray(got).tolist()} want {np.asarray(want).tolist()}")
        sys.exit(1)


def main():
    n = 6
    v0 = np.stack([np.arange(n) * 1.0, np.arange(n) - 2.0, np.full(n, 0.5)], axis=1)
    dt = 0.25
    v1 = v0 + dt * np.arange(3)
    v1[:, 0] *= 2.0
    v1[:, 1] += 0.5
    v1[:, 2] = -v1[:, 2]
    nb1 = np.full((n, 4), -1)
    nb1[np.arange(n), np.arange(n) % 4] = np.arange(n) + 11
    for lay in (pk.AoS, pk.SoA):
        name = "AoS" if lay is pk.AoS else "SoA"
        p = pk.View([n], Cell, layout=lay)
        p.v = v0
        p.id = np.arange(n) + 10
        p.nb = -1
        out = pk.View([n], pk.double)
        pk.parallel_for(n, update, p=p, out=out, dt=dt)
        check(f"{name} v", p.v, v1)
        check(f"{name} nb", p.nb, nb1)
        check(f"{name} nested body.f", p.body.f, np.stack([np.zeros(n), v1[:, 1]], axis=1))
        check(f"{name} method over v", out, np.sum(v1 * v1, axis=1))
        for ql in (pk.AoS, pk.SoA):
            q = pk.View([n], Cell, layout=ql)
            pk.parallel_for(n, copies, p=p, q=q)
            want = v1.copy()
            want[:, 1] += 100.0
            w = f"{name}->{ql.name}"
            check(f"{w} copied v", q.v, want[::-1])
            nbw = nb1.copy()
            nbw[:, 0] = 7
            check(f"{w} copied nb", q.nb, nbw[::-1])
            check(f"{w} copied body.f", q.body.f,
                  np.stack([v1[:, 0], v1[:, 1]], axis=1)[::-1])
            check(f"{w} copied id", q.id, (np.arange(n) + 10)[::-1])
            check(f"{w} source unchanged", p.v, v1)
        g = pk.View([3, 2], Cell, layout=lay)
        pk.parallel_for(3, grid, g=g)
        gi, gj, gd = np.meshgrid(np.arange(3), np.arange(2), np.arange(3), indexing="ij")
        check(f"{name} rank 2 v (shape (3, 2, 3))", g.v, 10.0 * gi + gj + 0.5 * gd)
        check(f"{name} rank 2 body.f", g.body.f[:, :, 1], (10.0 * gi + gj + 1.0)[:, :, 0])
    out = pk.View([n], pk.double)
    pk.parallel_for(n, local, out=out)
    check("local value", out, np.arange(n) ** 2 + 9.0 - 1.0)
    print("OK")


if __name__ == "__main__":
    main()
