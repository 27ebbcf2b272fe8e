"""MDRange kernels launched with a policy pkc cannot see at the call: one a
helper function returns, one stored on an object (`grid.policy`), as
applications build them once and reuse them. PyKokkos takes the work
indices from the policy at run time; pkc from the calls: an int parameter
after the first that no call passes by keyword is a work index (a scalar
would be missing at the call), one passed by keyword stays a scalar. A
variable reassigned from a 2-D to a 3-D policy between two loops: each
launch reads the assignment before it. Checked against numpy."""
import numpy as np
import pykokkos as pk


@pk.workunit
def fill(i: int, j: int, k: int, v: pk.View3D[pk.double]):
    v[i][j][k] = i * 100 + j * 10 + k


@pk.workunit
def plane_sum(i: int, j: int, v: pk.View2D[pk.double]):
    v[i][j] = i * 3 + j


@pk.workunit
def cube_sum(i: int, j: int, k: int, v: pk.View3D[pk.double]):
    v[i][j][k] = i * 9 + j * 3 + k


@pk.workunit
def total(i: int, j: int, acc: pk.Acc[pk.double], a: pk.View2D[pk.double]):
    acc += a[i][j]


@pk.workunit
def shifted(i: int, k: int, v: pk.View1D[pk.int64]):
    v[i] = i + k


@pk.functor
class Stencil:
    def __init__(self, a: pk.View2D[pk.double], b: pk.View2D[pk.double]):
        self.a: pk.View2D[pk.double] = a
        self.b: pk.View2D[pk.double] = b

    @pk.workunit
    def smooth(self, i: int, j: int):
        self.b[i][j] = 0.25 * (self.a[i - 1][j] + self.a[i + 1][j] + self.a[i][j - 1] +
                               self.a[i][j + 1])


def box(lo, hi):
    return pk.MDRangePolicy(lo, hi)


def first(n):
    return pk.RangePolicy(0, n)


class Grid:
    def __init__(self, n, m):
        self.n, self.m = n, m
        self.interior = pk.MDRangePolicy([1, 1], [n - 1, m - 1])
        self.all = pk.MDRangePolicy([0, 0], [n, m])


checks = []
v = pk.View([3, 4, 5], pk.double)
pk.parallel_for(box([0, 0, 0], [3, 4, 5]), fill, v=v)
i, j, k = np.indices((3, 4, 5))
checks.append(("3-D policy from a helper", np.asarray(v).tolist(), (i * 100 + j * 10 + k).tolist()))

g = Grid(6, 7)
a = pk.View([6, 7], pk.double)
a[:] = np.arange(42.0).reshape(6, 7) ** 2
s = pk.parallel_reduce(g.all, total, a=a)
checks.append(("reduction over an attribute's policy", s, float(np.asarray(a).sum())))

b = pk.View([6, 7], pk.double)
pk.parallel_for(g.interior, Stencil(a, b).smooth)
x = np.asarray(a)
want = np.zeros((6, 7))
want[1:-1, 1:-1] = 0.25 * (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] + x[1:-1, 2:])
checks.append(("functor method, attribute policy", np.asarray(b).tolist(), want.tolist()))

y = pk.View([5], pk.int64)
pk.parallel_for(first(5), shifted, k=7, v=y)
checks.append(("an int passed by keyword stays a scalar", np.asarray(y).tolist(),
               list(range(7, 12))))

for n in (2, 3):
    plane = pk.View([n, n], pk.double)
    policy = pk.MDRangePolicy([0, 0], [n, n])
    pk.parallel_for(policy, plane_sum, v=plane)
for n in (2, 3):
    cube = pk.View([n, n, n], pk.double)
    policy = pk.MDRangePolicy([0, 0, 0], [n, n, n])
    pk.parallel_for(policy, cube_sum, v=cube)
i, j, k = np.indices((3, 3, 3))
checks.append(("2-D then 3-D policy in one variable", (np.asarray(plane).tolist(),
               np.asarray(cube).tolist()), ((i * 3 + j)[:, :, 0].tolist(), (i * 9 + j * 3 + k).tolist())))

bad = [c for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
