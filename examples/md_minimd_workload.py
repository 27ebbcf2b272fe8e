"""MiniMD: a Lennard-Jones mini-app in the style of ExaMiniMD (ClassStyWithMain).

    pkc build examples/md_minimd_workload.py
    python3 examples/md_minimd_workload.py [NX [STEPS [THERMO]]]
        (default 8 unit cells per side, 100 steps, thermo output every 20)

Seven @pk.workload classes, each run with pk.execute from the Python time loop
as ExaMiniMD's modules are:
  - Lattice: FCC positions (4 * NX^3 atoms, reduced density 0.8442) with a
    small random jitter and random velocities (pk.Random_XorShift64_Pool),
    zero total momentum, scaled to temperature 1.4;
  - Comm (one rank, periodic box): exchange wraps the atoms back into the box;
    exchange_halo copies the atoms within cutoff + skin of a face across the
    periodic boundary as ghosts in six phases (+x, -x, +y, -y, +z, -z; later
    phases copy ghosts too, which fills the edges and corners), as
    ExaMiniMD's comm_serial; update_halo moves the ghosts with their owners
    between rebuilds;
  - Binning: pk.BinSort with pk.BinOp3D over the subview x[range_min:range_max, :],
    cells at least cutoff + skin wide plus one halo cell per side; sorts the
    local atoms' x, v, type and id into cell order, or (ghosts included) bins
    them only; counts and offsets copied into 3-D members;
  - Neighbor: full neighbour lists, one team per cell, the offsets and counts
    of the 27 surrounding cells staged in team scratch;
  - Force: LJ forces (cutoff 2.5, energy shifted to zero there) and energy;
  - Integrator: velocity Verlet (NVE); Thermo: kinetic energy, temperature
    and total momentum.
Neighbour lists (and ghosts) are rebuilt every 5 steps; thermodynamic output
(temperature, PE, KE, total energy per atom) every THERMO steps. Checked: the
initial and final potential energy against an O(N^2) numpy minimum-image
reference, total-energy drift below 1%, total momentum conserved, the atom ids
still a permutation after the sorts.
"""
# test-args: 5 60 20
import math
import sys
from typing import List

import numpy as np
import pykokkos as pk
from pykokkos import *  # noqa: F401,F403 (bare printf in @pk.main, as PyKokkos programs write it)
from builtins import abs, max, min  # noqa: E402 (the star import binds pk.abs/max/min)

RHO = 0.8442
TEMPERATURE = 1.4
CUTOFF = 2.5
SKIN = 0.3
REBUILD = 5
MAX_NEIGHS = 96


class System:
    """The atoms (ExaMiniMD's System): locals in rows [0, N_local), ghosts after them."""

    def __init__(self, nx: int):
        self.a = (4.0 / RHO) ** (1.0 / 3.0)
        self.domain = nx * self.a
        self.N_local = 4 * nx ** 3
        self.N_ghost = 0
        depth = CUTOFF + SKIN
        # room for the ghosts: the atoms of the box grown by the halo depth, plus slack
        self.N_max = int(1.3 * RHO * (self.domain + 2 * depth) ** 3) + 64
        self.x = pk.View([self.N_max, 3], pk.double)
        self.v = pk.View([self.N_max, 3], pk.double)
        self.f = pk.View([self.N_max, 3], pk.double)
        self.type = pk.View([self.N_max], pk.int32)
        self.id = pk.View([self.N_max], pk.int32)


@pk.workload
class Lattice:
    def __init__(self, s: System, nx: int, seed: int):
        self.nx: int = nx
        self.a: float = s.a
        self.N_local: int = s.N_local
        self.temperature: float = TEMPERATURE
        self.x: pk.View2D[pk.double] = s.x
        self.v: pk.View2D[pk.double] = s.v
        self.type: pk.View1D[pk.int32] = s.type
        self.id: pk.View1D[pk.int32] = s.id
        self.pool: pk.Random_XorShift64_Pool = pk.Random_XorShift64_Pool(seed)
        self.px: float = 0.0
        self.py: float = 0.0
        self.pz: float = 0.0
        self.ke: float = 0.0
        self.factor: float = 1.0

    @pk.main
    def run(self):
        pk.parallel_for("Lattice::create", N_local, self.create)
        pk.parallel_for("Lattice::type", N_local, lambda i: 0, type)
        pk.parallel_for("Lattice::id", N_local, lambda i: i, id)
        px = pk.parallel_reduce("Lattice::px", N_local, lambda i, acc: acc + v[i][0])
        py = pk.parallel_reduce("Lattice::py", N_local, lambda i, acc: acc + v[i][1])
        pz = pk.parallel_reduce("Lattice::pz", N_local, lambda i, acc: acc + v[i][2])
        pk.parallel_for("Lattice::zero_momentum", N_local, self.zero_momentum)
        ke = pk.parallel_reduce("Lattice::ke", N_local, self.kinetic)
        factor = math.sqrt(temperature * (3 * N_local - 3) / (2.0 * ke))
        pk.parallel_for("Lattice::scale", N_local, self.scale)
        printf("Lattice: %d atoms, %d x %d x %d fcc cells of side %.4f\n", N_local, nx, nx, nx, a)

    @pk.workunit
    def create(self, i: int):
        cell: int = i // 4
        b: int = i % 4
        ox: float = 0.5 if b == 1 or b == 2 else 0.0
        oy: float = 0.5 if b == 1 or b == 3 else 0.0
        oz: float = 0.5 if b == 2 or b == 3 else 0.0
        state = pool.get_state()
        x[i][0] = (cell % nx + ox + 0.04 * (state.drand() - 0.5)) * a
        x[i][1] = ((cell // nx) % nx + oy + 0.04 * (state.drand() - 0.5)) * a
        x[i][2] = (cell // (nx * nx) + oz + 0.04 * (state.drand() - 0.5)) * a
        for d in range(3):
            v[i][d] = state.drand() - 0.5
        pool.free_state(state)

    @pk.workunit
    def zero_momentum(self, i: int):
        v[i][0] -= px / N_local
        v[i][1] -= py / N_local
        v[i][2] -= pz / N_local

    @pk.workunit
    def kinetic(self, i: int, acc: pk.Acc[pk.double]):
        acc = acc + 0.5 * (v[i][0] * v[i][0] + v[i][1] * v[i][1] + v[i][2] * v[i][2])

    @pk.workunit
    def scale(self, i: int):
        for d in range(3):
            v[i][d] *= factor


@pk.workload
class Comm:
    def __init__(self, s: System, comm_depth: float):
        self.domain: float = s.domain
        self.comm_depth: float = comm_depth
        self.N_local: int = s.N_local
        self.N_ghost: int = 0
        self.N_max: int = s.N_max
        self.x: pk.View2D[pk.double] = s.x
        self.type: pk.View1D[pk.int32] = s.type
        self.id: pk.View1D[pk.int32] = s.id
        self.max_pack: int = s.N_max
        self.pack_indices_all: pk.View2D[pk.int32] = pk.View([6, s.N_max], pk.int32)
        self.pack_count: pk.View1D[pk.int32] = pk.View([1], pk.int32)
        self.num_ghost = [0] * 6   # host-side bookkeeping, as in ExaMiniMD
        self.phase: int = 0
        self.mode: int = 0
        self.nparticles: int = 0
        self.count: int = 0
        self.overflow = 0

    def exchange(self, s: System):
        """Wraps the local atoms back into the box."""
        self.mode = 0
        pk.execute(pk.ExecutionSpace.Default, self)

    def exchange_halo(self, s: System):
        """Creates the ghosts, phase by phase; s.N_ghost is their number afterwards."""
        self.N_ghost = 0
        for self.phase in range(6):
            # the -x phase must not copy the ghosts the +x phase just made (and so on)
            sub = self.num_ghost[self.phase - 1] if self.phase % 2 == 1 else 0
            self.nparticles = self.N_local + self.N_ghost - sub
            self.mode = 1
            pk.execute(pk.ExecutionSpace.Default, self)
            if self.N_local + self.N_ghost + self.count > self.N_max:
                self.overflow = 1
                self.count = self.N_max - self.N_local - self.N_ghost
            self.num_ghost[self.phase] = self.count
            self.N_ghost += self.count
        s.N_ghost = self.N_ghost

    def update_halo(self, s: System):
        """Moves each ghost to its owner's position (shifted by the box)."""
        self.N_ghost = 0
        for self.phase in range(6):
            self.nparticles = self.num_ghost[self.phase]
            self.mode = 2
            pk.execute(pk.ExecutionSpace.Default, self)
            self.N_ghost += self.nparticles

    @pk.main
    def run(self):
        if mode == 0:
            pk.parallel_for("CommSerial::exchange_self", N_local, self.exchange_self)
        elif mode == 1:
            pk.parallel_for("CommSerial::reset_count", 1, lambda i: 0, pack_count)
            pk.parallel_for("CommSerial::halo_exchange_self", nparticles, self.halo_exchange_self)
            count = pk.parallel_reduce("CommSerial::count", 1, lambda i, acc: acc + pack_count[i])
        else:
            pk.parallel_for("CommSerial::halo_update_self", nparticles, self.halo_update_self)

    @pk.function
    def shift(self) -> float:
        return -domain if phase % 2 == 0 else domain

    @pk.workunit
    def exchange_self(self, i: int):
        for d in range(3):
            if x[i][d] >= domain:
                x[i][d] -= domain
            if x[i][d] < 0.0:
                x[i][d] += domain

    @pk.workunit
    def halo_exchange_self(self, i: int):
        d: int = phase // 2
        xd: float = x[i][d]
        if (phase % 2 == 0 and xd >= domain - comm_depth) or (phase % 2 == 1 and xd < comm_depth):
            slot: int = pk.atomic_fetch_add(pack_count, [0], 1)
            g: int = N_local + N_ghost + slot
            if g < N_max:
                pack_indices_all[phase][slot] = i
                for k in range(3):
                    x[g][k] = x[i][k]
                x[g][d] += self.shift()
                type[g] = type[i]
                id[g] = id[i]

    @pk.workunit
    def halo_update_self(self, ii: int):
        i: int = pack_indices_all[phase][ii]
        g: int = N_local + N_ghost + ii
        for k in range(3):
            x[g][k] = x[i][k]
        x[g][phase // 2] += self.shift()


@pk.workload
class Binning:
    def __init__(self, s: System, min_bin_size: float):
        nb: int = max(1, int(s.domain / min_bin_size))
        dx = s.domain / nb
        eps = dx / 1000.0
        self.nhalo: int = 1
        self.nbinx: int = nb + 2
        self.nbiny: int = nb + 2
        self.nbinz: int = nb + 2
        self.minx: float = -dx - eps
        self.maxx: float = s.domain + dx + eps
        self.miny: float = -dx - eps
        self.maxy: float = s.domain + dx + eps
        self.minz: float = -dx - eps
        self.maxz: float = s.domain + dx + eps
        self.x: pk.View2D[pk.double] = s.x
        self.v: pk.View2D[pk.double] = s.v
        self.type: pk.View1D[pk.int32] = s.type
        self.id: pk.View1D[pk.int32] = s.id
        self.range_min: int = 0
        self.range_max: int = 0
        self.sort: bool = False
        self.bincount: pk.View3D[pk.int32] = pk.View([nb + 2, nb + 2, nb + 2], pk.int32)
        self.binoffsets: pk.View3D[pk.int32] = pk.View([nb + 2, nb + 2, nb + 2], pk.int32)
        self.permute_vector: pk.View1D[pk.int32] = pk.View([s.N_max], pk.int32)
        self.bin_count_1d: pk.View1D[pk.int32] = pk.View([(nb + 2) ** 3], pk.int32)
        self.bin_offsets_1d: pk.View1D[pk.int32] = pk.View([(nb + 2) ** 3], pk.int32)

    def create_binning(self, range_min: int, range_max: int, sort: bool):
        """Bins atoms [range_min, range_max); sort: also permutes them into bin order."""
        self.range_min = range_min
        self.range_max = range_max
        self.sort = sort
        self.permute_vector.resize(0, range_max - range_min)
        pk.execute(pk.ExecutionSpace.Default, self)

    @pk.main
    def run(self):
        nbin: List[int] = [nbinx, nbiny, nbinz]
        min_values: List[float] = [minx, miny, minz]
        max_values: List[float] = [maxx, maxy, maxz]
        x_sub = self.x[self.range_min:self.range_max, :]
        binop = pk.BinOp3D(x_sub, nbin, min_values, max_values)
        sorter = pk.BinSort(x_sub, binop)
        sorter.create_permute_vector()
        self.permute_vector = sorter.get_permute_vector()
        self.bin_count_1d = sorter.get_bin_count()
        self.bin_offsets_1d = sorter.get_bin_offsets()
        pk.parallel_for("Binning::AssignOffsets", nbinx * nbiny * nbinz, self.assign_offsets)
        if sort:
            sorter.sort(x_sub)
            v_sub = pk.subview(self.v, slice(self.range_min, self.range_max), slice(None))
            sorter.sort(v_sub)
            type_sub = self.type[self.range_min:self.range_max]
            sorter.sort(type_sub)
            id_sub = pk.subview(self.id, slice(self.range_min, self.range_max))
            sorter.sort(id_sub)

    @pk.workunit
    def assign_offsets(self, i: int):
        ix: int = i // (nbiny * nbinz)
        iy: int = (i // nbinz) % nbiny
        iz: int = i % nbinz
        binoffsets[ix][iy][iz] = bin_offsets_1d[i]
        bincount[ix][iy][iz] = bin_count_1d[i]


@pk.workload
class Neighbor:
    def __init__(self, s: System, binning: Binning, neigh_cut: float, maxneighs: int):
        self.neigh_cut: float = neigh_cut
        self.N_local: int = s.N_local
        self.nhalo: int = binning.nhalo
        self.nbinx: int = binning.nbinx - 2 * binning.nhalo
        self.nbiny: int = binning.nbiny - 2 * binning.nhalo
        self.nbinz: int = binning.nbinz - 2 * binning.nhalo
        self.x: pk.View2D[pk.double] = s.x
        self.bin_count: pk.View3D[pk.int32] = binning.bincount
        self.bin_offsets: pk.View3D[pk.int32] = binning.binoffsets
        self.permute_vector: pk.View1D[pk.int32] = binning.permute_vector
        self.maxneighs: int = maxneighs
        self.num_neighs: pk.View1D[pk.int32] = pk.View([1], pk.int32)
        self.neighs: pk.View2D[pk.int32] = pk.View([1, 1], pk.int32)
        # the lists' real sizes (ExaMiniMD allocates them in create_neigh_list)
        self.num_neighs: pk.View1D[pk.int32] = pk.View([s.N_local], pk.int32)
        self.neighs: pk.View2D[pk.int32] = pk.View([s.N_local, maxneighs], pk.int32)
        self.most: int = 0

    def create_neigh_list(self, binning: Binning):
        """Full lists of the local atoms from the cells binning holds (ghosts binned)."""
        self.permute_vector = binning.permute_vector
        pk.execute(pk.ExecutionSpace.Default, self)

    @pk.main
    def run(self):
        stage: int = 2 * pk.ScratchView1D.shmem_size(27)
        policy = pk.TeamPolicy(nbinx * nbiny * nbinz, pk.AUTO).set_scratch_size(0, pk.PerTeam(stage))
        pk.parallel_for("Neighbor::fill_neigh_list_full", policy, self.fill_neigh_list_full)
        most = pk.parallel_reduce("Neighbor::most", N_local, self.longest_list)

    @pk.workunit
    def fill_neigh_list_full(self, team: pk.TeamMember):
        b: int = team.league_rank()
        bx: int = b // (nbiny * nbinz) + nhalo
        by: int = (b // nbinz) % nbiny + nhalo
        bz: int = b % nbinz + nhalo
        near_offset: pk.ScratchView1D[pk.int32] = pk.ScratchView1D(team.team_scratch(0), 27)
        near_count: pk.ScratchView1D[pk.int32] = pk.ScratchView1D(team.team_scratch(0), 27)

        def stage(c: int):
            jx: int = bx + c // 9 - 1
            jy: int = by + (c // 3) % 3 - 1
            jz: int = bz + c % 3 - 1
            near_offset[c] = bin_offsets[jx][jy][jz]
            near_count[c] = bin_count[jx][jy][jz]

        pk.parallel_for(pk.TeamThreadRange(team, 27), stage)
        team.team_barrier()
        i_offset: int = bin_offsets[bx][by][bz]

        def fill(bi: int):
            i: int = permute_vector[i_offset + bi]
            if i < N_local:
                x_i: float = x[i][0]
                y_i: float = x[i][1]
                z_i: float = x[i][2]
                n: int = 0
                k: int = 0
                for c in range(27):
                    for k in range(near_count[c]):
                        j: int = permute_vector[near_offset[c] + k]
                        dx: float = x_i - x[j][0]
                        dy: float = y_i - x[j][1]
                        dz: float = z_i - x[j][2]
                        if dx * dx + dy * dy + dz * dz <= neigh_cut * neigh_cut and j != i:
                            if n < maxneighs:
                                neighs[i][n] = j
                            n += 1
                num_neighs[i] = n

        pk.parallel_for(pk.TeamThreadRange(team, bin_count[bx][by][bz]), fill)

    @pk.workunit
    def longest_list(self, i: int, acc: pk.Max[int]):
        acc = max(acc, num_neighs[i])


@pk.workload
class Force:
    def __init__(self, s: System, neighbor: Neighbor, cutoff: float):
        self.N_local: int = s.N_local
        self.x: pk.View2D[pk.double] = s.x
        self.f: pk.View2D[pk.double] = s.f
        self.num_neighs: pk.View1D[pk.int32] = neighbor.num_neighs
        self.neighs: pk.View2D[pk.int32] = neighbor.neighs
        self.cutsq: float = cutoff * cutoff
        self.epsilon: float = 1.0
        self.sigma6: float = 1.0
        sr6 = 1.0 / cutoff ** 6
        self.eshift: float = 4.0 * sr6 * (sr6 - 1.0)
        self.pe: float = 0.0

    def compute(self):
        """Forces on the local atoms, and their potential energy into self.pe."""
        pk.execute(pk.ExecutionSpace.Default, self)

    @pk.main
    def run(self):
        pk.parallel_for("ForceLJNeigh::compute", N_local, self.compute_force)
        pe = pk.parallel_reduce("ForceLJNeigh::energy", N_local, self.energy)

    @pk.workunit
    def compute_force(self, i: int):
        x_i: float = x[i][0]
        y_i: float = x[i][1]
        z_i: float = x[i][2]
        fx_i: float = 0.0
        fy_i: float = 0.0
        fz_i: float = 0.0
        for jj in range(num_neighs[i]):
            j: int = neighs[i][jj]
            dx: float = x_i - x[j][0]
            dy: float = y_i - x[j][1]
            dz: float = z_i - x[j][2]
            rsq: float = dx * dx + dy * dy + dz * dz
            if rsq < cutsq:
                r2inv: float = 1.0 / rsq
                r6inv: float = r2inv * r2inv * r2inv * sigma6
                fpair: float = 48.0 * epsilon * r6inv * (r6inv - 0.5) * r2inv
                fx_i += fpair * dx
                fy_i += fpair * dy
                fz_i += fpair * dz
        f[i][0] = fx_i
        f[i][1] = fy_i
        f[i][2] = fz_i

    @pk.workunit
    def energy(self, i: int, acc: pk.Acc[pk.double]):
        x_i: float = x[i][0]
        y_i: float = x[i][1]
        z_i: float = x[i][2]
        for jj in range(num_neighs[i]):
            j: int = neighs[i][jj]
            dx: float = x_i - x[j][0]
            dy: float = y_i - x[j][1]
            dz: float = z_i - x[j][2]
            rsq: float = dx * dx + dy * dy + dz * dz
            if rsq < cutsq:
                r6inv: float = sigma6 / (rsq * rsq * rsq)
                acc += 0.5 * (4.0 * epsilon * r6inv * (r6inv - 1.0) - eshift)


@pk.workload
class Integrator:
    def __init__(self, s: System, dt: float):
        self.N_local: int = s.N_local
        self.dt: float = dt
        self.mass: float = 1.0
        self.dtf: float = 0.5 * dt / 1.0
        self.x: pk.View2D[pk.double] = s.x
        self.v: pk.View2D[pk.double] = s.v
        self.f: pk.View2D[pk.double] = s.f
        self.half: int = 0

    def initial_integrate(self):
        self.half = 0
        pk.execute(pk.ExecutionSpace.Default, self)

    def final_integrate(self):
        self.half = 1
        pk.execute(pk.ExecutionSpace.Default, self)

    @pk.main
    def run(self):
        if half == 0:
            pk.parallel_for("IntegratorNVE::initial_integrate", N_local, self.initial)
        else:
            pk.parallel_for("IntegratorNVE::final_integrate", N_local, self.final)

    @pk.workunit
    def initial(self, i: int):
        for d in range(3):
            v[i][d] += dtf * f[i][d] / mass
            x[i][d] += dt * v[i][d]

    @pk.workunit
    def final(self, i: int):
        for d in range(3):
            v[i][d] += dtf * f[i][d] / mass


@pk.workload
class Thermo:
    def __init__(self, s: System):
        self.N_local: int = s.N_local
        self.v: pk.View2D[pk.double] = s.v
        self.ke: float = 0.0
        self.temperature: float = 0.0
        self.px: float = 0.0
        self.py: float = 0.0
        self.pz: float = 0.0

    @pk.main
    def run(self):
        ke = pk.parallel_reduce("KinE", N_local, self.kinetic)
        temperature = 2.0 * ke / (3 * N_local - 3)
        px = pk.parallel_reduce("Momentum::x", N_local, lambda i, acc: acc + v[i][0])
        py = pk.parallel_reduce("Momentum::y", N_local, lambda i, acc: acc + v[i][1])
        pz = pk.parallel_reduce("Momentum::z", N_local, lambda i, acc: acc + v[i][2])

    @pk.workunit
    def kinetic(self, i: int, acc: pk.Acc[pk.double]):
        acc = acc + 0.5 * (v[i][0] * v[i][0] + v[i][1] * v[i][1] + v[i][2] * v[i][2])


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
    print(f"md_minimd_workload: verification FAILED ({msg})")
    sys.exit(1)


def main():
    nx = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    thermo_every = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    dt = 0.005
    s = System(nx)
    if s.domain < 2 * CUTOFF + 1e-9 or s.domain < CUTOFF + SKIN:
        sys.exit("md_minimd_workload: NX must be at least 3 (box wider than twice the cutoff)")
    n = s.N_local
    pk.execute(pk.ExecutionSpace.Default, Lattice(s, nx, 20260127))
    x0 = np.asarray(s.x)[:n].copy()
    comm = Comm(s, CUTOFF + SKIN)
    binning = Binning(s, CUTOFF + SKIN)
    neighbor = Neighbor(s, binning, CUTOFF + SKIN, MAX_NEIGHS)
    force = Force(s, neighbor, CUTOFF)
    integrator = Integrator(s, dt)
    thermo = Thermo(s)
    worst = {"neighs": 0, "overflow": 0}

    def rebuild():
        comm.exchange(s)
        binning.create_binning(0, s.N_local, True)
        comm.exchange_halo(s)
        binning.create_binning(0, s.N_local + s.N_ghost, False)
        neighbor.create_neigh_list(binning)
        worst["neighs"] = max(worst["neighs"], neighbor.most)
        worst["overflow"] = max(worst["overflow"], comm.overflow)

    def energies():
        pk.execute(pk.ExecutionSpace.Default, thermo)
        return thermo.ke, force.pe

    timer = pk.Timer()
    rebuild()
    force.compute()
    ke0, pe0 = energies()
    e0 = ke0 + pe0
    p0 = np.array([thermo.px, thermo.py, thermo.pz])
    print(f"{'step':>6} {'temp':>10} {'pe/n':>12} {'ke/n':>12} {'etot/n':>12}")
    print(f"{0:6d} {thermo.temperature:10.6f} {pe0 / n:12.6f} {ke0 / n:12.6f} {e0 / n:12.6f}")
    max_drift = 0.0
    for step in range(1, steps + 1):
        integrator.initial_integrate()
        if step % REBUILD == 0:
            rebuild()
        else:
            comm.update_halo(s)
        force.compute()
        integrator.final_integrate()
        ke, pe = energies()
        max_drift = max(max_drift, abs(ke + pe - e0) / abs(e0))
        if step % thermo_every == 0 or step == steps:
            print(f"{step:6d} {thermo.temperature:10.6f} {pe / n:12.6f} {ke / n:12.6f} "
                  f"{(ke + pe) / n:12.6f}")
    elapsed = timer.seconds()
    print(f"md_minimd_workload: {n} atoms, {s.N_ghost} ghosts, {steps} steps, dt={dt}: "
          f"{elapsed * 1e3 / max(steps, 1):.3f} ms/step")

    if worst["overflow"]:
        fail(f"more ghosts than the {s.N_max - n} rows kept for them")
    if worst["neighs"] > MAX_NEIGHS:
        fail(f"an atom had {worst['neighs']} neighbours, room for {MAX_NEIGHS}")
    pe_ref = reference_potential(x0, s.domain)
    if abs(pe0 - pe_ref) > 1e-10 * abs(pe_ref):
        fail(f"initial potential energy {pe0!r}, numpy O(N^2) reference {pe_ref!r}")
    x_end = np.asarray(s.x)[:n] % s.domain
    pe_end_ref = reference_potential(x_end, s.domain)
    if abs(force.pe - pe_end_ref) > 1e-10 * abs(pe_end_ref):
        fail(f"final potential energy {force.pe!r}, numpy O(N^2) reference {pe_end_ref!r}")
    if abs(thermo.temperature - TEMPERATURE) > 0.5 * TEMPERATURE:
        fail(f"temperature {thermo.temperature} far from the initial {TEMPERATURE}")
    if abs(ke0 - 0.5 * (3 * n - 3) * TEMPERATURE) > 1e-9 * ke0:
        fail(f"initial kinetic energy {ke0}, expected {0.5 * (3 * n - 3) * TEMPERATURE}")
    if not max_drift < 1e-2:
        fail(f"total energy drift {max_drift:.3g} over {steps} steps")
    p_end = np.array([thermo.px, thermo.py, thermo.pz])
    if np.abs(p0).max() > 1e-10 * n or np.abs(p_end - p0).max() > 1e-9 * n:
        fail(f"total momentum {p0.tolist()} at the start, {p_end.tolist()} at the end")
    if sorted(np.asarray(s.id)[:n].tolist()) != list(range(n)):
        fail("the atom ids are no longer a permutation of 0..N-1")
    print(f"md_minimd_workload: verification PASSED ({n} atoms, PE0 = {pe0:.10g} and final "
          f"PE match numpy, max relative energy drift {max_drift:.2e} over {steps} steps, "
          f"momentum {np.abs(p_end).max():.1e})")


if __name__ == "__main__":
    main()
