"""MiniMD: a Lennard-Jones mini-app in the style of ExaMiniMD (FunctionSty).

    pkc build examples/md_minimd.py
    python3 examples/md_minimd.py [NX [STEPS [THERMO]]]
        (default 8 unit cells per side, 100 steps, thermo output every 20)

The same simulation as md_minimd_workload.py, written with @pk.workunit
functions launched from Python host code (pk.parallel_for / parallel_reduce
with keyword arguments):
  - FCC lattice (4 * NX^3 atoms, reduced density 0.8442) with a small random
    jitter, random velocities (pk.Random_XorShift64_Pool) with zero total
    momentum scaled to temperature 1.4; type and id filled by lambdas;
  - a serial periodic "comm" as ExaMiniMD's comm_serial: atoms wrapped into
    the box, ghosts (copies across the periodic faces of the atoms within
    cutoff + skin of a face) made in six phases, moved with their owners
    between rebuilds;
  - cell lists from host-code pk.BinSort / pk.BinOp3D over the subview
    x[0:N_local, :] (the local atoms sorted into cell order with their v,
    type and id) and over locals + ghosts (binned only), counts and offsets
    copied into 3-D Views; full neighbour lists, one team per cell;
  - LJ forces (cutoff 2.5, energy shifted to zero there), velocity Verlet.
Neighbour lists are rebuilt every 5 steps; thermodynamic output (temperature,
PE, KE, total energy per atom) every THERMO steps. Checked: the initial and
final potential energy against an O(N^2) numpy minimum-image reference,
total-energy drift below 1%, total momentum conserved, the atom ids still a
permutation after the sorts.
"""
# test-args: 5 60 20
import math
import sys

import numpy as np
import pykokkos as pk

RHO = 0.8442
TEMPERATURE = 1.4
CUTOFF = 2.5
SKIN = 0.3
REBUILD = 5
MAX_NEIGHS = 96


@pk.workunit
def create_lattice(i: int, nx: int, a: float, x: pk.View2D[pk.double], v: pk.View2D[pk.double],
                   pool: pk.Random_XorShift64_Pool):
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
def shift_and_scale(i: int, v: pk.View2D[pk.double], px: float, py: float, pz: float,
                    n: int, factor: float):
    v[i][0] = (v[i][0] - px / n) * factor
    v[i][1] = (v[i][1] - py / n) * factor
    v[i][2] = (v[i][2] - pz / n) * factor


@pk.workunit
def kinetic(i: int, acc: pk.Acc[pk.double], v: pk.View2D[pk.double]):
    acc = acc + 0.5 * (v[i][0] * v[i][0] + v[i][1] * v[i][1] + v[i][2] * v[i][2])


@pk.workunit
def exchange_self(i: int, domain: float, x: pk.View2D[pk.double]):
    for d in range(3):
        if x[i][d] >= domain:
            x[i][d] -= domain
        if x[i][d] < 0.0:
            x[i][d] += domain


@pk.workunit
def halo_exchange_self(i: int, phase: int, domain: float, comm_depth: float, first: int,
                       N_max: int, x: pk.View2D[pk.double], type: pk.View1D[pk.int32],
                       id: pk.View1D[pk.int32], pack_count: pk.View1D[pk.int32],
                       pack_indices: pk.View1D[pk.int32]):
    d: int = phase // 2
    xd: float = x[i][d]
    if (phase % 2 == 0 and xd >= domain - comm_depth) or (phase % 2 == 1 and xd < comm_depth):
        slot: int = pk.atomic_fetch_add(pack_count, [0], 1)
        g: int = first + slot
        if g < N_max:
            pack_indices[slot] = i
            for k in range(3):
                x[g][k] = x[i][k]
            x[g][d] += -domain if phase % 2 == 0 else domain
            type[g] = type[i]
            id[g] = id[i]


@pk.workunit
def halo_update_self(ii: int, phase: int, domain: float, first: int, x: pk.View2D[pk.double],
                     pack_indices: pk.View1D[pk.int32]):
    i: int = pack_indices[ii]
    g: int = first + ii
    for k in range(3):
        x[g][k] = x[i][k]
    x[g][phase // 2] += -domain if phase % 2 == 0 else domain


@pk.workunit
def assign_offsets(i: int, nbiny: int, nbinz: int, bincount: pk.View3D[pk.int32],
                   binoffsets: pk.View3D[pk.int32], bin_count_1d: pk.View1D[pk.int32],
                   bin_offsets_1d: pk.View1D[pk.int32]):
    ix: int = i // (nbiny * nbinz)
    iy: int = (i // nbinz) % nbiny
    iz: int = i % nbinz
    binoffsets[ix][iy][iz] = bin_offsets_1d[i]
    bincount[ix][iy][iz] = bin_count_1d[i]


@pk.workunit
def fill_neigh_list_full(team: pk.TeamMember, nbiny: int, nbinz: int, nhalo: int,
                         N_local: int, neigh_cut: float, maxneighs: int,
                         x: pk.View2D[pk.double], bin_count: pk.View3D[pk.int32],
                         bin_offsets: pk.View3D[pk.int32], permute_vector: pk.View1D[pk.int32],
                         num_neighs: pk.View1D[pk.int32], neighs: pk.View2D[pk.int32]):
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
def longest_list(i: int, acc: pk.Max[int], num_neighs: pk.View1D[pk.int32]):
    acc = max(acc, num_neighs[i])


@pk.workunit
def lj_force(i: int, cutsq: float, x: pk.View2D[pk.double], f: pk.View2D[pk.double],
             num_neighs: pk.View1D[pk.int32], neighs: pk.View2D[pk.int32]):
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
            r6inv: float = r2inv * r2inv * r2inv
            fpair: float = 48.0 * r6inv * (r6inv - 0.5) * r2inv
            fx_i += fpair * dx
            fy_i += fpair * dy
            fz_i += fpair * dz
    f[i][0] = fx_i
    f[i][1] = fy_i
    f[i][2] = fz_i


@pk.workunit
def lj_energy(i: int, acc: pk.Acc[pk.double], cutsq: float, eshift: float,
              x: pk.View2D[pk.double], num_neighs: pk.View1D[pk.int32],
              neighs: pk.View2D[pk.int32]):
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
            r6inv: float = 1.0 / (rsq * rsq * rsq)
            acc += 0.5 * (4.0 * r6inv * (r6inv - 1.0) - eshift)


@pk.workunit
def initial_integrate(i: int, dt: float, dtf: float, x: pk.View2D[pk.double],
                      v: pk.View2D[pk.double], f: pk.View2D[pk.double]):
    for d in range(3):
        v[i][d] += dtf * f[i][d]
        x[i][d] += dt * v[i][d]


@pk.workunit
def final_integrate(i: int, dtf: float, v: pk.View2D[pk.double], f: pk.View2D[pk.double]):
    for d in range(3):
        v[i][d] += dtf * f[i][d]


class System:
    """The atoms (ExaMiniMD's System): locals in rows [0, N_local), ghosts after them."""

    def __init__(self, nx):
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


def init_system(s, nx, seed):
    n = s.N_local
    pk.parallel_for("create_lattice", n, create_lattice, nx=nx, a=s.a, x=s.x, v=s.v,
                    pool=pk.Random_XorShift64_Pool(seed))
    types: pk.View1D[pk.int32] = s.type
    ids: pk.View1D[pk.int32] = s.id
    pk.parallel_for("init_type", n, lambda i: 0, types)
    pk.parallel_for("init_id", n, lambda i: i, ids)
    v: pk.View2D[pk.double] = s.v
    p = [0.0, 0.0, 0.0]
    d: int = 0
    for d in range(3):
        p[d] = pk.parallel_reduce("momentum", n, lambda i, acc: acc + v[i][d])
    ke = pk.parallel_reduce("ke", n, kinetic, v=v) - (p[0] ** 2 + p[1] ** 2 + p[2] ** 2) / (2 * n)
    factor = math.sqrt(TEMPERATURE * (3 * n - 3) / (2.0 * ke))
    pk.parallel_for("shift_and_scale", n, shift_and_scale, v=v, px=p[0], py=p[1], pz=p[2],
                    n=n, factor=factor)


class Comm:
    """A serial periodic box (ExaMiniMD's CommSerial)."""

    def __init__(self, s, comm_depth):
        self.s = s
        self.comm_depth = comm_depth
        self.pack_indices_all = pk.View([6, s.N_max], pk.int32)
        self.pack_count = pk.View([1], pk.int32)
        self.num_ghost = [0] * 6
        self.overflow = False

    def exchange(self):
        pk.parallel_for("CommSerial::exchange_self", self.s.N_local, exchange_self,
                        domain=self.s.domain, x=self.s.x)

    def exchange_halo(self):
        s = self.s
        s.N_ghost = 0
        for phase in range(6):
            # the -x phase must not copy the ghosts the +x phase just made (and so on)
            sub = self.num_ghost[phase - 1] if phase % 2 == 1 else 0
            pack_count: pk.View1D[pk.int32] = self.pack_count
            pk.parallel_for("CommSerial::reset_count", 1, lambda i: 0, pack_count)
            pk.parallel_for("CommSerial::halo_exchange_self", s.N_local + s.N_ghost - sub,
                            halo_exchange_self, phase=phase, domain=s.domain,
                            comm_depth=self.comm_depth, first=s.N_local + s.N_ghost, N_max=s.N_max,
                            x=s.x, type=s.type, id=s.id, pack_count=self.pack_count,
                            pack_indices=self.pack_indices_all[phase, :])
            count = int(self.pack_count[0])
            if s.N_local + s.N_ghost + count > s.N_max:
                self.overflow = True
                count = s.N_max - s.N_local - s.N_ghost
            self.num_ghost[phase] = count
            s.N_ghost += count

    def update_halo(self):
        s = self.s
        first = s.N_local
        for phase in range(6):
            pk.parallel_for("CommSerial::halo_update_self", self.num_ghost[phase], halo_update_self,
                            phase=phase, domain=s.domain, first=first, x=s.x,
                            pack_indices=self.pack_indices_all[phase, :])
            first += self.num_ghost[phase]


class Binning:
    """Cells at least min_bin_size wide plus one halo cell per side (ExaMiniMD's BinningKKSort)."""

    def __init__(self, s, min_bin_size):
        self.s = s
        nb = int(s.domain / min_bin_size)
        if nb < 1:
            nb = 1
        dx = s.domain / nb
        eps = dx / 1000.0
        self.nhalo = 1
        self.nbin = [nb + 2, nb + 2, nb + 2]
        self.min_values = [-dx - eps] * 3
        self.max_values = [s.domain + dx + eps] * 3
        self.bincount = pk.View(self.nbin, pk.int32)
        self.binoffsets = pk.View(self.nbin, pk.int32)
        self.permute_vector = None

    def create_binning(self, range_min, range_max, sort):
        s = self.s
        x_sub = s.x[range_min:range_max, :]
        binop = pk.BinOp3D(x_sub, self.nbin, self.min_values, self.max_values)
        sorter = pk.BinSort(x_sub, binop)
        sorter.create_permute_vector()
        self.permute_vector = sorter.get_permute_vector()
        nbinx, nbiny, nbinz = self.nbin
        pk.parallel_for("Binning::AssignOffsets", nbinx * nbiny * nbinz, assign_offsets,
                        nbiny=nbiny, nbinz=nbinz, bincount=self.bincount,
                        binoffsets=self.binoffsets, bin_count_1d=sorter.get_bin_count(),
                        bin_offsets_1d=sorter.get_bin_offsets())
        if sort:
            sorter.sort(x_sub)
            sorter.sort(pk.subview(s.v, slice(range_min, range_max), slice(None)))
            sorter.sort(s.type[range_min:range_max])
            sorter.sort(pk.subview(s.id, slice(range_min, range_max)))


class Neighbor:
    """Full neighbour lists of the local atoms (ExaMiniMD's Neighbor2D, full)."""

    def __init__(self, s, neigh_cut, maxneighs):
        self.s = s
        self.neigh_cut = neigh_cut
        self.maxneighs = maxneighs
        self.num_neighs = pk.View([s.N_local], pk.int32)
        self.neighs = pk.View([s.N_local, maxneighs], pk.int32)
        self.most = 0

    def create_neigh_list(self, binning):
        s = self.s
        nbinx, nbiny, nbinz = (nb - 2 * binning.nhalo for nb in binning.nbin)
        policy = pk.TeamPolicy(nbinx * nbiny * nbinz, pk.AUTO).set_scratch_size(
            0, pk.PerTeam(2 * pk.ScratchView1D.shmem_size(27)))
        pk.parallel_for("Neighbor::fill_neigh_list_full", policy, fill_neigh_list_full,
                        nbiny=nbiny, nbinz=nbinz, nhalo=binning.nhalo, N_local=s.N_local,
                        neigh_cut=self.neigh_cut, maxneighs=self.maxneighs, x=s.x,
                        bin_count=binning.bincount, bin_offsets=binning.binoffsets,
                        permute_vector=binning.permute_vector, num_neighs=self.num_neighs,
                        neighs=self.neighs)
        self.most = pk.parallel_reduce("Neighbor::most", s.N_local, longest_list,
                                       num_neighs=self.num_neighs)


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
    print(f"md_minimd: verification FAILED ({msg})")
    sys.exit(1)


def main():
    nx = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    thermo_every = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    dt = 0.005
    dtf = 0.5 * dt
    s = System(nx)
    if s.domain < 2 * CUTOFF + 1e-9 or s.domain < CUTOFF + SKIN:
        sys.exit("md_minimd: NX must be at least 3 (box wider than twice the cutoff)")
    n = s.N_local
    init_system(s, nx, 20260127)
    x0 = np.asarray(s.x)[:n].copy()
    comm = Comm(s, CUTOFF + SKIN)
    binning = Binning(s, CUTOFF + SKIN)
    neighbor = Neighbor(s, CUTOFF + SKIN, MAX_NEIGHS)
    cutsq = CUTOFF * CUTOFF
    sr6 = 1.0 / CUTOFF ** 6
    eshift = 4.0 * sr6 * (sr6 - 1.0)
    worst = 0

    def rebuild():
        comm.exchange()
        binning.create_binning(0, s.N_local, True)
        comm.exchange_halo()
        binning.create_binning(0, s.N_local + s.N_ghost, False)
        neighbor.create_neigh_list(binning)
        return neighbor.most

    def force():
        pk.parallel_for("ForceLJNeigh::compute", n, lj_force, cutsq=cutsq, x=s.x, f=s.f,
                        num_neighs=neighbor.num_neighs, neighs=neighbor.neighs)
        return pk.parallel_reduce("ForceLJNeigh::energy", n, lj_energy, cutsq=cutsq,
                                  eshift=eshift, x=s.x, num_neighs=neighbor.num_neighs,
                                  neighs=neighbor.neighs)

    def kinetic_energy():
        return pk.parallel_reduce("KinE", n, kinetic, v=s.v)

    def momentum():
        v: pk.View2D[pk.double] = s.v
        p = np.zeros(3)
        d: int = 0
        for d in range(3):
            p[d] = pk.parallel_reduce("Momentum", n, lambda i, acc: acc + v[i][d])
        return p

    timer = pk.Timer()
    worst = rebuild()
    pe0 = force()
    ke0 = kinetic_energy()
    e0 = ke0 + pe0
    p0 = momentum()
    print(f"{'step':>6} {'temp':>10} {'pe/n':>12} {'ke/n':>12} {'etot/n':>12}")
    print(f"{0:6d} {2 * ke0 / (3 * n - 3):10.6f} {pe0 / n:12.6f} {ke0 / n:12.6f} {e0 / n:12.6f}")
    max_drift = 0.0
    pe, ke = pe0, ke0
    for step in range(1, steps + 1):
        pk.parallel_for("IntegratorNVE::initial_integrate", n, initial_integrate, dt=dt, dtf=dtf,
                        x=s.x, v=s.v, f=s.f)
        if step % REBUILD == 0:
            most = rebuild()
            if most > worst:
                worst = most
        else:
            comm.update_halo()
        pe = force()
        pk.parallel_for("IntegratorNVE::final_integrate", n, final_integrate, dtf=dtf, v=s.v, f=s.f)
        ke = kinetic_energy()
        drift = abs(ke + pe - e0) / abs(e0)
        if drift > max_drift:
            max_drift = drift
        if step % thermo_every == 0 or step == steps:
            print(f"{step:6d} {2 * ke / (3 * n - 3):10.6f} {pe / n:12.6f} {ke / n:12.6f} "
                  f"{(ke + pe) / n:12.6f}")
    elapsed = timer.seconds()
    p_end = momentum()
    print(f"md_minimd: {n} atoms, {s.N_ghost} ghosts, {steps} steps, dt={dt}: "
          f"{elapsed * 1e3 / max(steps, 1):.3f} ms/step")

    if comm.overflow:
        fail(f"more ghosts than the {s.N_max - n} rows kept for them")
    if worst > MAX_NEIGHS:
        fail(f"an atom had {worst} neighbours, room for {MAX_NEIGHS}")
    pe_ref = reference_potential(x0, s.domain)
    if abs(pe0 - pe_ref) > 1e-10 * abs(pe_ref):
        fail(f"initial potential energy {pe0!r}, numpy O(N^2) reference {pe_ref!r}")
    pe_end_ref = reference_potential(np.asarray(s.x)[:n] % s.domain, s.domain)
    if abs(pe - pe_end_ref) > 1e-10 * abs(pe_end_ref):
        fail(f"final potential energy {pe!r}, numpy O(N^2) reference {pe_end_ref!r}")
    if abs(ke0 - 0.5 * (3 * n - 3) * TEMPERATURE) > 1e-9 * ke0:
        fail(f"initial kinetic energy {ke0}, expected {0.5 * (3 * n - 3) * TEMPERATURE}")
    if not max_drift < 1e-2:
        fail(f"total energy drift {max_drift:.3g} over {steps} steps")
    if np.abs(p0).max() > 1e-10 * n or np.abs(p_end - p0).max() > 1e-9 * n:
        fail(f"total momentum {p0.tolist()} at the start, {p_end.tolist()} at the end")
    if sorted(np.asarray(s.id)[:n].tolist()) != list(range(n)):
        fail("the atom ids are no longer a permutation of 0..N-1")
    print(f"md_minimd: verification PASSED ({n} atoms, PE0 = {pe0:.10g} and final "
          f"PE match numpy, max relative energy drift {max_drift:.2e} over {steps} steps, "
          f"momentum {np.abs(p_end).max():.1e})")


if __name__ == "__main__":
    main()
