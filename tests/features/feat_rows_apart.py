"""MDRange kernels whose points write only their own elements along the rows,
and RangePolicy/MDRange kernels over Views of classtypes (issue 26): on host
backends their loops are marked free of loop-carried dependences when the
Views they write overlap none of the others (pkc::apart, checked at each
launch), so they vectorize. They must give the numbers they gave before,
whatever the layout: checked bitwise against numpy (GPUs: within a few ulps)
for a 2-D and a 3-D stencil, a kernel with four input and four output Views,
AoS and SoA Views of
a classtype (fields written, an element passed to a function that reads it, a
method that changes its element); and the same kernels with a written View
passed again as an input (not apart: the rows run in order, each point
reading what the point before it in the row wrote; host backends only: a GPU
runs a row's points at once, as Kokkos does)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def smooth2(i: int, j: int, a: pk.View2D[pk.double], b: pk.View2D[pk.double]):
    b[i][j] = 0.5 * a[i][j] + 0.125 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1])


@pk.workunit
def smooth3(i: int, j: int, k: int, a: pk.View3D[pk.double], b: pk.View3D[pk.double]):
    b[i][j][k] = a[i][j][k - 1] + 2.0 * a[i][j][k] + a[i][j][k + 1] - a[i - 1][j][k]


@pk.workunit
def shift_add(i: int, j: int, a: pk.View2D[pk.double], b: pk.View2D[pk.double]):
    b[i][j] = a[i][j - 1] + 1.0


@pk.workunit
def four_fields(i: int, j: int, r: pk.View2D[pk.double], u: pk.View2D[pk.double],
                v: pk.View2D[pk.double], e: pk.View2D[pk.double], dr: pk.View2D[pk.double],
                du: pk.View2D[pk.double], dv: pk.View2D[pk.double], de: pk.View2D[pk.double],
                s: float):
    p: float = 0.4 * (e[i][j] - 0.5 * (u[i][j] * u[i][j] + v[i][j] * v[i][j]) / r[i][j])
    dr[i][j] = s * (u[i][j + 1] - u[i][j - 1])
    du[i][j] = s * (u[i][j] * u[i][j] / r[i][j] + p)
    dv[i][j] = s * (u[i][j] * v[i][j] / r[i][j])
    de[i][j] = s * (u[i][j] / r[i][j] * (e[i][j] + p))


@pk.classtype
class Cell:
    def __init__(self, a: float, b: float):
        self.a: float = a
        self.b: float = b

    @pk.function
    def relax(self, w: float):
        self.b = (1.0 - w) * self.b + w * self.a


@pk.function
def weight(q: Cell) -> float:
    return q.a * 0.25 + q.b


@pk.workunit
def cell_stencil(i: int, j: int, u: pk.View2D[Cell], d: pk.View2D[Cell]):
    d[i, j].a = weight(u[i, j - 1]) + u[i, j + 1].a
    q: Cell = u[i, j]
    d[i, j].b = q.b - q.a
    d[i, j].relax(0.5)


@pk.workunit
def cell_shift(i: int, j: int, u: pk.View2D[Cell], d: pk.View2D[Cell]):
    d[i, j].a = u[i, j - 1].a + 1.0


@pk.workunit
def cell_axpy(k: int, x: pk.View1D[Cell], y: pk.View1D[Cell], s: float):
    y[k].a = s * x[k].a + y[k].a
    y[k].b = weight(x[k])


bad = []
# a written View passed again as an input: rows in order on host backends only
HOST = pk.get_default_space() in (pk.ExecutionSpace.OpenMP, pk.ExecutionSpace.Serial)


def check(name, got, want):
    """Bitwise on host backends; GPUs contract a * b + c into one rounding
    (nvcc's default -fmad=true), so there within a few ulps."""
    got, want = np.asarray(got), np.asarray(want)
    same = (np.array_equal(got, want) if HOST else
            got.shape == want.shape and np.allclose(got, want, rtol=1e-13, atol=1e-13))
    if got.dtype != want.dtype or not same:
        bad.append(name)
        print(f"BAD {name}: got {got!r} want {want!r}")


def view(a):
    v = pk.View(list(a.shape), pk.double)
    np.asarray(v)[...] = a
    return v


def running(x0):
    """x[:, j] = x[:, j - 1] + 1.0 for j = 1, 2, ... in turn (a row run in order
    with its input aliasing its output)."""
    x = x0.copy()
    for j in range(1, x.shape[1]):
        x[:, j] = x[:, j - 1] + 1.0
    return x


def run_plain(rng):
    for n, m in ((3, 3), (9, 70), (33, 1031)):
        a0 = rng.standard_normal((n, m))
        a, b = view(a0), pk.View([n, m], pk.double)
        pk.parallel_for(pk.MDRangePolicy([1, 1], [n - 1, m - 1]), smooth2, a=a, b=b)
        want = np.zeros((n, m))
        want[1:-1, 1:-1] = 0.5 * a0[1:-1, 1:-1] + 0.125 * (
            a0[:-2, 1:-1] + a0[2:, 1:-1] + a0[1:-1, :-2] + a0[1:-1, 2:])
        check(f"smooth2 {n}x{m}", b, want)
        c0 = rng.standard_normal((n, m))
        if HOST:  # b is a: every point reads the one before it in its row, as written
            c = view(c0)
            pk.parallel_for(pk.MDRangePolicy([0, 1], [n, m]), shift_add, a=c, b=c)
            check(f"shift_add in place {n}x{m}", c, running(c0))
        d = pk.View([n, m], pk.double)
        c = view(c0)
        pk.parallel_for(pk.MDRangePolicy([0, 1], [n, m]), shift_add, a=c, b=d)
        want = np.zeros((n, m))
        want[:, 1:] = c0[:, :-1] + 1.0
        check(f"shift_add {n}x{m}", d, want)
    a0 = rng.standard_normal((5, 6, 67))
    a, b = view(a0), pk.View([5, 6, 67], pk.double)
    pk.parallel_for(pk.MDRangePolicy([1, 0, 1], [5, 6, 66]), smooth3, a=a, b=b)
    want = np.zeros((5, 6, 67))
    want[1:, :, 1:-1] = (a0[1:, :, :-2] + 2.0 * a0[1:, :, 1:-1] + a0[1:, :, 2:]
                         - a0[:-1, :, 1:-1])
    check("smooth3", b, want)


def run_four_fields(rng):
    n, m = 17, 203
    r0 = 1.0 + rng.random((n, m))
    u0, v0, e0 = rng.standard_normal((3, n, m))
    e0 = e0 + 5.0
    ins = [view(x) for x in (r0, u0, v0, e0)]
    outs = [pk.View([n, m], pk.double) for _ in range(4)]
    pk.parallel_for(pk.MDRangePolicy([0, 1], [n, m - 1]), four_fields, r=ins[0], u=ins[1],
                    v=ins[2], e=ins[3], dr=outs[0], du=outs[1], dv=outs[2], de=outs[3], s=0.75)
    c = (slice(None), slice(1, -1))
    p = 0.4 * (e0[c] - 0.5 * (u0[c] * u0[c] + v0[c] * v0[c]) / r0[c])
    wants = [0.75 * (u0[:, 2:] - u0[:, :-2]), 0.75 * (u0[c] * u0[c] / r0[c] + p),
             0.75 * (u0[c] * v0[c] / r0[c]), 0.75 * (u0[c] / r0[c] * (e0[c] + p))]
    for name, got, w in zip(("dr", "du", "dv", "de"), outs, wants):
        want = np.zeros((n, m))
        want[c] = w
        check(f"four_fields {name}", got, want)


def cells(lay, a0, b0):
    v = pk.View(list(a0.shape), Cell, layout=lay)
    v.a = a0
    v.b = b0
    return v


def run_cells(rng):
    n, m = 7, 301
    for lay in (pk.AoS, pk.SoA):
        a0, b0 = rng.standard_normal((2, n, m))
        u, d = cells(lay, a0, b0), cells(lay, np.zeros((n, m)), np.zeros((n, m)))
        pk.parallel_for(pk.MDRangePolicy([0, 1], [n, m - 1]), cell_stencil, u=u, d=d)
        wa, wb = np.zeros((n, m)), np.zeros((n, m))
        wa[:, 1:-1] = (a0[:, :-2] * 0.25 + b0[:, :-2]) + a0[:, 2:]
        wb[:, 1:-1] = 0.5 * (b0[:, 1:-1] - a0[:, 1:-1]) + 0.5 * wa[:, 1:-1]
        check(f"{lay.name} cell_stencil a", d.a, wa)
        check(f"{lay.name} cell_stencil b", d.b, wb)
        if HOST:  # d is u: each point reads the field its left neighbour wrote
            u = cells(lay, a0, b0)
            pk.parallel_for(pk.MDRangePolicy([0, 1], [n, m]), cell_shift, u=u, d=u)
            check(f"{lay.name} cell_shift in place", u.a, running(a0))
            check(f"{lay.name} cell_shift in place b", u.b, b0)
        k = 4099
        xa, xb, ya = rng.standard_normal((3, k))
        x, y = cells(lay, xa, xb), cells(lay, ya, np.zeros(k))
        pk.parallel_for(k, cell_axpy, x=x, y=y, s=1.5)
        check(f"{lay.name} cell_axpy a", y.a, 1.5 * xa + ya)
        check(f"{lay.name} cell_axpy b", y.b, xa * 0.25 + xb)
        # y is x: each item reads its own element before writing it
        x = cells(lay, xa, xb)
        pk.parallel_for(k, cell_axpy, x=x, y=x, s=1.5)
        check(f"{lay.name} cell_axpy in place a", x.a, 1.5 * xa + xa)
        check(f"{lay.name} cell_axpy in place b", x.b, (1.5 * xa + xa) * 0.25 + xb)


def main():
    rng = np.random.default_rng(26)
    run_plain(rng)
    run_four_fields(rng)
    run_cells(rng)
    print("OK" if not bad else f"BAD {bad}")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
