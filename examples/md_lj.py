"""A small Lennard-Jones molecular dynamics workload in the spirit of ExaMiniMD.

    pkc build examples/md_lj.py
    python3 examples/md_lj.py [NX [STEPS [DT]]]   (default 8 unit cells per side, 100 steps, dt 0.005)

ClassStyWithMain: the @pk.main method does the whole run on the device.
  - FCC lattice (4 * NX^3 atoms, reduced density 0.8442, periodic box), initial
    velocities from numpy (temperature 1.4, zero total momentum);
  - binning into cells of at least cutoff + skin: pk.atomic_fetch_add on the
    per-bin counts hands out the slots;
  - a full neighbour list from the 27 surrounding bins (minimum image),
    rebuilt every REBUILD steps; overflow is tracked with pk.Max reductions;
  - LJ forces with cutoff 2.5 (energy shifted to 0 at the cutoff), velocity
    Verlet integration, kinetic and potential energy reductions every step.
Checked in Python: the initial potential energy against an O(N^2) numpy
reference, the initial kinetic energy, and the total-energy drift over the run
(max |E(t) - E(0)| / |E(0)| < 1e-3).
"""
# test-args: 6 40
# fusion-compare: E0 PE0 KE(end) PE(end)
import math
import sys

import numpy as np
import pykokkos as pk

RHO = 0.8442
TEMPERATURE = 1.4
CUTOFF = 2.5
SKIN = 0.3
REBUILD = 5
MAX_NEIGH = 160


@pk.workload
class LJ:
    def __init__(self, nx: int, steps: int, dt: float, v0: pk.View2D[pk.double]):
        a = (4.0 / RHO) ** (1.0 / 3.0)
        self.nx: int = nx
        self.N: int = 4 * nx * nx * nx
        self.steps: int = steps
        self.every: int = REBUILD
        self.a: float = a
        self.L: float = nx * a
        self.dt: float = dt
        self.rc2: float = CUTOFF * CUTOFF
        self.rn2: float = (CUTOFF + SKIN) * (CUTOFF + SKIN)
        sr6c = 1.0 / CUTOFF ** 6
        self.eshift: float = 4.0 * sr6c * (sr6c - 1.0)
        nb = int(self.L / (CUTOFF + SKIN))
        self.nb: int = nb
        self.bin_size: float = self.L / nb
        self.nbins: int = nb * nb * nb
        self.max_per_bin: int = 3 * self.N // self.nbins + 32
        self.max_neigh: int = MAX_NEIGH
        self.x: pk.View2D[pk.double] = pk.View([self.N, 3], pk.double)
        self.v: pk.View2D[pk.double] = v0
        self.f: pk.View2D[pk.double] = pk.View([self.N, 3], pk.double)
        self.bin_count: pk.View1D[pk.int32] = pk.View([self.nbins], pk.int32)
        self.bin_atoms: pk.View2D[pk.int32] = pk.View([self.nbins, self.max_per_bin], pk.int32)
        self.num_neigh: pk.View1D[pk.int32] = pk.View([self.N], pk.int32)
        self.neigh: pk.View2D[pk.int32] = pk.View([self.N, self.max_neigh], pk.int32)
        self.ke: float = 0.0
        self.pe: float = 0.0
        self.ke0: float = 0.0
        self.pe0: float = 0.0
        self.e0: float = 0.0
        self.max_drift: float = 0.0
        self.bin_max: int = 0
        self.nn_max: int = 0
        self.worst_bin: int = 0
        self.worst_nn: int = 0
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for("lattice", self.N, self.lattice)
        pk.fence()
        timer = pk.Timer()
        for step in range(self.steps + 1):
            if step > 0:
                pk.parallel_for("initial_integrate", self.N, self.initial_integrate)
            if step % self.every == 0:
                pk.parallel_for("clear_bins", self.nbins, self.clear_bins)
                pk.parallel_for("bin_atoms", self.N, self.bin_atom)
                pk.parallel_for("neighbors", self.N, self.build_neighbors)
                self.bin_max = pk.parallel_reduce("bin_max", self.nbins, self.largest_bin)
                self.nn_max = pk.parallel_reduce("neigh_max", self.N, self.largest_list)
                if self.bin_max > self.worst_bin:
                    self.worst_bin = self.bin_max
                if self.nn_max > self.worst_nn:
                    self.worst_nn = self.nn_max
            pk.parallel_for("force", self.N, self.force)
            if step > 0:
                pk.parallel_for("final_integrate", self.N, self.final_integrate)
            self.ke = pk.parallel_reduce("kinetic", self.N, self.kinetic)
            self.pe = pk.parallel_reduce("potential", self.N, self.potential)
            if step == 0:
                self.ke0 = self.ke
                self.pe0 = self.pe
                self.e0 = self.ke + self.pe
            drift: float = self.ke + self.pe - self.e0
            if drift < 0.0:
                drift = -drift
            if drift > self.max_drift:
                self.max_drift = drift
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.function
    def min_image(self, d: float) -> float:
        return d - self.L * math.floor(d / self.L + 0.5)

    @pk.function
    def bin_coord(self, p: float) -> int:
        c: int = int(p / self.bin_size)
        if c >= self.nb:
            c = self.nb - 1
        if c < 0:
            c = 0
        return c

    @pk.workunit
    def lattice(self, i: int):
        cell: int = i // 4
        b: int = i % 4
        ox: float = 0.0
        oy: float = 0.0
        oz: float = 0.0
        if b == 1:
            ox = 0.5
            oy = 0.5
        elif b == 2:
            ox = 0.5
            oz = 0.5
        elif b == 3:
            oy = 0.5
            oz = 0.5
        self.x[i][0] = (cell % self.nx + ox) * self.a
        self.x[i][1] = ((cell // self.nx) % self.nx + oy) * self.a
        self.x[i][2] = (cell // (self.nx * self.nx) + oz) * self.a

    @pk.workunit
    def clear_bins(self, b: int):
        self.bin_count[b] = 0

    @pk.workunit
    def bin_atom(self, i: int):
        cx: int = self.bin_coord(self.x[i][0])
        cy: int = self.bin_coord(self.x[i][1])
        cz: int = self.bin_coord(self.x[i][2])
        b: int = (cx * self.nb + cy) * self.nb + cz
        slot: int = pk.atomic_fetch_add(self.bin_count, [b], 1)
        if slot < self.max_per_bin:
            self.bin_atoms[b][slot] = i

    @pk.workunit
    def build_neighbors(self, i: int):
        xi: float = self.x[i][0]
        yi: float = self.x[i][1]
        zi: float = self.x[i][2]
        cx: int = self.bin_coord(xi)
        cy: int = self.bin_coord(yi)
        cz: int = self.bin_coord(zi)
        n: int = 0
        for ox in range(-1, 2):
            for oy in range(-1, 2):
                for oz in range(-1, 2):
                    bx: int = (cx + ox + self.nb) % self.nb
                    by: int = (cy + oy + self.nb) % self.nb
                    bz: int = (cz + oz + self.nb) % self.nb
                    b: int = (bx * self.nb + by) * self.nb + bz
                    count: int = min(self.bin_count[b], self.max_per_bin)
                    for k in range(count):
                        j: int = self.bin_atoms[b][k]
                        if j != i:
                            dx: float = self.min_image(xi - self.x[j][0])
                            dy: float = self.min_image(yi - self.x[j][1])
                            dz: float = self.min_image(zi - self.x[j][2])
                            if dx * dx + dy * dy + dz * dz < self.rn2:
                                if n < self.max_neigh:
                                    self.neigh[i][n] = j
                                n += 1
        self.num_neigh[i] = n

    @pk.workunit
    def largest_bin(self, b: int, acc: pk.Max[int]):
        acc = max(acc, self.bin_count[b])

    @pk.workunit
    def largest_list(self, i: int, acc: pk.Max[int]):
        acc = max(acc, self.num_neigh[i])

    @pk.workunit
    def force(self, i: int):
        xi: float = self.x[i][0]
        yi: float = self.x[i][1]
        zi: float = self.x[i][2]
        fx: float = 0.0
        fy: float = 0.0
        fz: float = 0.0
        nn: int = min(self.num_neigh[i], self.max_neigh)
        for k in range(nn):
            j: int = self.neigh[i][k]
            dx: float = self.min_image(xi - self.x[j][0])
            dy: float = self.min_image(yi - self.x[j][1])
            dz: float = self.min_image(zi - self.x[j][2])
            r2: float = dx * dx + dy * dy + dz * dz
            if r2 < self.rc2:
                sr2: float = 1.0 / r2
                sr6: float = sr2 * sr2 * sr2
                fpair: float = 48.0 * sr6 * (sr6 - 0.5) * sr2
                fx += fpair * dx
                fy += fpair * dy
                fz += fpair * dz
        self.f[i][0] = fx
        self.f[i][1] = fy
        self.f[i][2] = fz

    @pk.workunit
    def potential(self, i: int, acc: pk.Acc[pk.double]):
        xi: float = self.x[i][0]
        yi: float = self.x[i][1]
        zi: float = self.x[i][2]
        e: float = 0.0
        nn: int = min(self.num_neigh[i], self.max_neigh)
        for k in range(nn):
            j: int = self.neigh[i][k]
            dx: float = self.min_image(xi - self.x[j][0])
            dy: float = self.min_image(yi - self.x[j][1])
            dz: float = self.min_image(zi - self.x[j][2])
            r2: float = dx * dx + dy * dy + dz * dz
            if r2 < self.rc2:
                sr6: float = 1.0 / (r2 * r2 * r2)
                e += 4.0 * sr6 * (sr6 - 1.0) - self.eshift
        acc += 0.5 * e

    @pk.workunit
    def kinetic(self, i: int, acc: pk.Acc[pk.double]):
        acc += 0.5 * (self.v[i][0] * self.v[i][0] + self.v[i][1] * self.v[i][1]
                      + self.v[i][2] * self.v[i][2])

    @pk.workunit
    def initial_integrate(self, i: int):
        for d in range(3):
            self.v[i][d] += 0.5 * self.dt * self.f[i][d]
            p: float = self.x[i][d] + self.dt * self.v[i][d]
            self.x[i][d] = p - self.L * math.floor(p / self.L)

    @pk.workunit
    def final_integrate(self, i: int):
        for d in range(3):
            self.v[i][d] += 0.5 * self.dt * self.f[i][d]


def fcc_positions(nx, a):
    basis = np.array([[0.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.5, 0.0, 0.5], [0.0, 0.5, 0.5]])
    cells = np.array([[x, y, z] for z in range(nx) for y in range(nx) for x in range(nx)], float)
    return ((cells[:, None, :] + basis[None, :, :]) * a).reshape(-1, 3)


def reference_potential(x, box):
    """O(N^2) shifted-LJ potential energy with the minimum image, in row blocks."""
    sr6c = 1.0 / CUTOFF ** 6
    shift = 4.0 * sr6c * (sr6c - 1.0)
    total = 0.0
    for s in range(0, len(x), 256):
        d = x[s:s + 256, None, :] - x[None, :, :]
        d -= box * np.floor(d / box + 0.5)
        r2 = (d * d).sum(axis=-1)
        rows = np.arange(s, min(s + 256, len(x)))
        r2[rows - s, rows] = np.inf
        inside = r2 < CUTOFF * CUTOFF
        sr6 = 1.0 / r2[inside] ** 3
        total += 0.5 * float((4.0 * sr6 * (sr6 - 1.0) - shift).sum())
    return total


def fail(msg):
    print(f"md_lj: verification FAILED ({msg})")
    sys.exit(1)


def main():
    nx = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    dt = float(sys.argv[3]) if len(sys.argv) > 3 else 0.005
    a = (4.0 / RHO) ** (1.0 / 3.0)
    if int(nx * a / (CUTOFF + SKIN)) < 3:
        sys.exit("md_lj: NX must be at least 6 (3 bins per side, minimum image)")
    n = 4 * nx ** 3
    rng = np.random.default_rng(7)
    v0 = rng.normal(size=(n, 3))
    v0 -= v0.mean(axis=0)
    v0 *= math.sqrt(TEMPERATURE / ((v0 * v0).sum() / (3 * n)))
    ke_ref = 0.5 * float((v0 * v0).sum())

    w = LJ(nx, steps, dt, pk.from_numpy(v0.copy()))
    pk.execute(pk.ExecutionSpace.Default, w)
    print(f"md_lj: {n} atoms, {steps} steps, dt={dt}: {w.elapsed * 1e3 / max(steps, 1):.3f} ms/step, "
          f"E0={w.e0:.6f} PE0={w.pe0:.6f} KE(end)={w.ke:.6f} PE(end)={w.pe:.6f}")

    if w.worst_bin > w.max_per_bin:
        fail(f"a bin held {w.worst_bin} atoms, room for {w.max_per_bin}")
    if w.worst_nn > w.max_neigh:
        fail(f"an atom had {w.worst_nn} neighbours, room for {w.max_neigh}")
    pe_ref = reference_potential(fcc_positions(nx, a), nx * a)
    if abs(w.pe0 - pe_ref) > 1e-10 * abs(pe_ref):
        fail(f"initial potential energy {w.pe0!r}, numpy O(N^2) reference {pe_ref!r}")
    if abs(w.ke0 - ke_ref) > 1e-10 * ke_ref:
        fail(f"initial kinetic energy {w.ke0!r}, expected {ke_ref!r}")
    drift = w.max_drift / abs(w.e0)
    if not drift < 1e-3:
        fail(f"total energy drift {drift:.3g} over {steps} steps")
    print(f"md_lj: verification PASSED ({n} atoms, PE0 = {w.pe0:.10g} matches numpy, "
          f"max relative energy drift {drift:.2e} over {steps} steps)")


if __name__ == "__main__":
    main()
