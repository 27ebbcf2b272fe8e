"""Kernels over Views of a @pk.classtype, for test_classview.py (built on
first use)."""
from typing import List

import pykokkos as pk


@pk.classtype
class Particle:
    def __init__(self, x: float, v: pk.float32, id: pk.int32, n: int):
        self.x: float = x
        self.v: pk.float32 = v
        self.id: pk.int32 = id
        self.n: int = n


@pk.classtype
class Other:
    def __init__(self, a: float, b: float):
        self.a: float = a
        self.b: float = b


@pk.workunit
def advance(i: int, p: pk.View1D[Particle], dt: float):
    p[i].x += dt * p[i].v
    p[i].n += 1


@pk.workunit
def scale(i: int, x: pk.View1D[pk.double], s: float):
    x[i] *= s


@pk.classtype
class Vec3:
    def __init__(self, x: float, y: float, z: float):
        self.x: float = x
        self.y: float = y
        self.z: float = z


@pk.classtype
class Body:
    def __init__(self, id: pk.int32, x: float, m: pk.float32):
        self.id: pk.int32 = id
        self.pos: Vec3 = Vec3(x, 0.0, 0.0)
        self.m: pk.float32 = m


@pk.workunit
def lift(i: int, b: pk.View1D[Body], dz: float):
    b[i].pos.z += dz * b[i].m
    b[i].id += 1


@pk.classtype
class Tracer:
    def __init__(self, x: float):
        self.id: pk.int32 = 0
        self.v: List[float] = [x, 0.0, 0.0]
        self.pos: Vec3 = Vec3(x, 0.0, 0.0)
        self.w: List[pk.float32] = [1.0, 1.0]


@pk.workunit
def spin(i: int, t: pk.View1D[Tracer]):
    for d in range(3):
        t[i].v[d] += 1.0 * d * t[i].w[1]
    t[i].id = 3
