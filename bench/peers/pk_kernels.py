"""The pkc contender of bench/peers/run.py: the kernels written as PyKokkos
users write them (workunits and launches as in examples/*.py). pkc builds
this file into bench/peers/pk_kernels.pk/ on first use.

The launches are in this file, in one small host function per kernel, as in
the examples: pkc types a workunit from its launches in the same file (with no
MDRangePolicy launch in sight, `def k(i: int, j: int, ...)` is a 1-D kernel
with a scalar parameter j). Each host function launches once (no chain of
launches: nothing here is fused); run.py times it with pk.fence().

Numba's versions are in nb_kernels.py, NumPy's in np_kernels.py; keep the
three the same algorithm."""
import math

import pykokkos as pk


# --- nstream (PRK, examples/nstream.py) and BabelStream (examples/babelstream.py)

@pk.workunit
def nstream(i: int, A: pk.View1D[pk.double], B: pk.View1D[pk.double],
            C: pk.View1D[pk.double], scalar: float):
    A[i] += B[i] + scalar * C[i]


@pk.workunit
def copy(i: int, a: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i]


@pk.workunit
def mul(i: int, b: pk.View1D[pk.double], c: pk.View1D[pk.double], scalar: float):
    b[i] = scalar * c[i]


@pk.workunit
def add(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double], c: pk.View1D[pk.double]):
    c[i] = a[i] + b[i]


@pk.workunit
def triad(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double], c: pk.View1D[pk.double],
          scalar: float):
    a[i] = b[i] + scalar * c[i]


@pk.workunit
def dot(i: int, acc: pk.Acc[pk.double], a: pk.View1D[pk.double], b: pk.View1D[pk.double]):
    acc += a[i] * b[i]


# --- 2D 5-point stencil (MDRangePolicy, as examples/stencil.py) ---------------

@pk.workunit
def stencil5(i: int, j: int, inp: pk.View2D[pk.double], out: pk.View2D[pk.double]):
    out[i][j] = 0.5 * inp[i][j] + 0.125 * (inp[i - 1][j] + inp[i + 1][j]
                                           + inp[i][j - 1] + inp[i][j + 1])


# --- PRK transpose (examples/transpose.py) -------------------------------------

@pk.workunit
def transpose(i: int, j: int, A: pk.View2D[pk.double], B: pk.View2D[pk.double]):
    B[i][j] += A[j][i]
    A[j][i] += 1.0


# --- random-index gather and GUPS (examples/gups.py) ----------------------------

@pk.workunit
def gather(i: int, x: pk.View1D[pk.double], idx: pk.View1D[pk.int64], y: pk.View1D[pk.double]):
    y[i] = x[idx[i]]


@pk.workunit
def gups(i: int, table: pk.View1D[pk.int64], idx: pk.View1D[pk.int64], datum: pk.int64):
    table[idx[i]] ^= datum


@pk.workunit
def gups_atomic(i: int, table: pk.View1D[pk.int64], idx: pk.View1D[pk.int64], datum: pk.int64):
    pk.atomic_fetch_xor(table, [idx[i]], datum)


# --- y^T A x with a TeamPolicy (examples/tutorial_team_policy.py) -----------------

@pk.workunit
def yAx(m: pk.TeamMember, acc: pk.Acc[pk.double], M: int, y: pk.View1D[pk.double],
        x: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    j: int = m.league_rank()

    def inner(i: int, inner_acc: pk.Acc[pk.double]):
        inner_acc += A[j][i] * x[i]

    temp2: float = pk.parallel_reduce(pk.TeamThreadRange(m, M), inner)

    def add_row():
        nonlocal acc
        acc += y[j] * temp2

    pk.single(pk.PerTeam(m), add_row)


# --- Lennard-Jones forces over a neighbour list (examples/md_lj.py's force) -----

@pk.workunit
def lj_force(i: int, L: float, rc2: float, x: pk.View2D[pk.double],
             num_neigh: pk.View1D[pk.int32], neigh: pk.View2D[pk.int32],
             f: pk.View2D[pk.double]):
    xi: float = x[i][0]
    yi: float = x[i][1]
    zi: float = x[i][2]
    fx: float = 0.0
    fy: float = 0.0
    fz: float = 0.0
    for k in range(num_neigh[i]):
        j: int = neigh[i][k]
        dx: float = xi - x[j][0]
        dy: float = yi - x[j][1]
        dz: float = zi - x[j][2]
        dx -= L * math.floor(dx / L + 0.5)
        dy -= L * math.floor(dy / L + 0.5)
        dz -= L * math.floor(dz / L + 0.5)
        r2: float = dx * dx + dy * dy + dz * dz
        if r2 < rc2:
            sr2: float = 1.0 / r2
            sr6: float = sr2 * sr2 * sr2
            fpair: float = 48.0 * sr6 * (sr6 - 0.5) * sr2
            fx += fpair * dx
            fy += fpair * dy
            fz += fpair * dz
    f[i][0] = fx
    f[i][1] = fy
    f[i][2] = fz


# --- the trivial launch (examples/trivial.py) ------------------------------------

@pk.workunit
def increment(i: int, v: pk.View1D[pk.double]):
    v[i] += 1.0


# --- launches (one per kernel; run.py calls them and fences) -----------------

def run_nstream(A, B, C, scalar):
    pk.parallel_for("nstream", pk.RangePolicy(0, A.extent(0)), nstream, A=A, B=B, C=C, scalar=scalar)


def run_copy(a, c):
    pk.parallel_for("copy", pk.RangePolicy(0, a.extent(0)), copy, a=a, c=c)


def run_mul(b, c, scalar):
    pk.parallel_for("mul", pk.RangePolicy(0, b.extent(0)), mul, b=b, c=c, scalar=scalar)


def run_add(a, b, c):
    pk.parallel_for("add", pk.RangePolicy(0, a.extent(0)), add, a=a, b=b, c=c)


def run_triad(a, b, c, scalar):
    pk.parallel_for("triad", pk.RangePolicy(0, a.extent(0)), triad, a=a, b=b, c=c, scalar=scalar)


def run_dot(a, b):
    return pk.parallel_reduce("dot", pk.RangePolicy(0, a.extent(0)), dot, a=a, b=b)


def run_stencil5(inp, out, tile):
    n: int = inp.extent(0)
    policy = pk.MDRangePolicy([1, 1], [n - 1, n - 1], [tile, tile])
    pk.parallel_for("stencil5", policy, stencil5, inp=inp, out=out)


def run_transpose(A, B, tile):
    order: int = A.extent(0)
    policy = pk.MDRangePolicy([0, 0], [order, order], [tile, tile])
    pk.parallel_for("transpose", policy, transpose, A=A, B=B)


def run_stencil5_default(inp, out):
    # No tile: what a PyKokkos user writes; pkc (or Kokkos) picks it (the GPU mode, gpu_run.py)
    n: int = inp.extent(0)
    pk.parallel_for("stencil5", pk.MDRangePolicy([1, 1], [n - 1, n - 1]), stencil5, inp=inp, out=out)


def run_transpose_default(A, B):
    order: int = A.extent(0)
    pk.parallel_for("transpose", pk.MDRangePolicy([0, 0], [order, order]), transpose, A=A, B=B)


def run_gather(x, idx, y):
    pk.parallel_for("gather", y.extent(0), gather, x=x, idx=idx, y=y)


def run_gups(table, idx, datum):
    pk.parallel_for("gups", idx.extent(0), gups, table=table, idx=idx, datum=datum)


def run_gups_atomic(table, idx, datum):
    pk.parallel_for("gups_atomic", idx.extent(0), gups_atomic, table=table, idx=idx, datum=datum)


def run_yAx(M, y, x, A):
    policy = pk.TeamPolicy(y.extent(0), pk.AUTO)
    return pk.parallel_reduce("yAx", policy, yAx, M=M, y=y, x=x, A=A)


def run_lj_force(L, rc2, x, num_neigh, neigh, f):
    pk.parallel_for("lj_force", x.extent(0), lj_force, L=L, rc2=rc2, x=x,
                    num_neigh=num_neigh, neigh=neigh, f=f)


def run_increment(v):
    pk.parallel_for(v.extent(0), increment, v=v)
