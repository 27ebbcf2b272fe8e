"""Views of a @pk.classtype of rank 2 and 3 (issue 26), AoS and SoA: an
MDRange kernel updating fields of p[i, j], a range kernel copying whole
elements between a rank-3 View and a rank-1 View (flat index), a method
on p[i, j, k]; checked against numpy."""
import sys

import numpy as np
import pykokkos as pk


@pk.classtype
class Cell:
    def __init__(self, rho: float, u: float, n: pk.int32):
        self.rho: float = rho
        self.u: float = u
        self.n: pk.int32 = n

    @pk.function
    def momentum(self) -> float:
        return self.rho * self.u


@pk.workunit
def advect(i: int, j: int, c: pk.View2D[Cell], dt: float):
    c[i, j].u += dt * c[i, j].rho
    c[i, j].n += i * 10 + j


@pk.workunit
def flatten(t: int, g: pk.View3D[Cell], flat: pk.View1D[Cell], out: pk.View1D[pk.double]):
    i: int = t // (g.extent(1) * g.extent(2))
    j: int = t // g.extent(2) % g.extent(1)
    k: int = t % g.extent(2)
    flat[t] = g[i, j, k]
    out[t] = g[i, j, k].momentum()


def bad(what, got, want):
    print(f"BAD {what}: got {np.asarray(got).tolist()} want {np.asarray(want).tolist()}")
    sys.exit(1)


def main():
    for lay in (pk.AoS, pk.SoA):
        c = pk.View([3, 4], Cell, layout=lay)
        rho = np.arange(12.0).reshape(3, 4)
        c.rho = rho
        c.u = 1.0
        pk.parallel_for(pk.MDRangePolicy([0, 0], [3, 4]), advect, c=c, dt=0.5)
        if not np.array_equal(np.asarray(c.u), 1.0 + 0.5 * rho):
            bad(f"{lay.name} 2-D u", c.u, 1.0 + 0.5 * rho)
        ii, jj = np.meshgrid(np.arange(3), np.arange(4), indexing="ij")
        if not np.array_equal(np.asarray(c.n), ii * 10 + jj):
            bad(f"{lay.name} 2-D n", c.n, ii * 10 + jj)

        g = pk.View([2, 3, 4], Cell, layout=lay)
        g.rho = np.arange(24.0).reshape(2, 3, 4)
        g.u = np.linspace(0.0, 1.0, 24).reshape(2, 3, 4)
        g.n = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
        for fl in (pk.AoS, pk.SoA):
            flat = pk.View([24], Cell, layout=fl)
            out = pk.View([24], pk.double)
            pk.parallel_for(24, flatten, g=g, flat=flat, out=out)
            for f in ("rho", "u", "n"):
                want = np.asarray(getattr(g, f)).ravel()
                if not np.array_equal(np.asarray(getattr(flat, f)), want):
                    bad(f"{lay.name}->{fl.name} 3-D copy {f}", getattr(flat, f), want)
            want = (np.asarray(g.rho) * np.asarray(g.u)).ravel()
            if not np.allclose(np.asarray(out), want, rtol=1e-14):
                bad(f"{lay.name} 3-D method", out, want)
    print("OK")


if __name__ == "__main__":
    main()
