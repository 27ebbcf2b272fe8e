"""Fusion benchmark subjects (bench/fusion/run.py runs them): our versions of
the PyFuser dissertation's subjects, as @pk.workload programs whose @pk.main
holds the kernel chain pkc fuses ahead of time. Each main runs the chain
once untimed (warm-up) and once timed (self.elapsed, seconds); `check`
names the Views whose values must be bitwise equal fused and unfused, or
the reduction results (equal within rounding), separated by commas."""
import pykokkos as pk


@pk.workload
class NStream50:
    """nstream x50: A += B + s*C, fifty launches (PyFuser's NS, 50 kernels)."""

    def __init__(self, n: int):
        self.n: int = n
        self.reps: int = 50
        self.s: float = 3.0
        self.A: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.B: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.C: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        for w in range(self.reps):
            pk.parallel_for(self.n, self.nstream)
        pk.fence()
        timer = pk.Timer()
        for r in range(self.reps):
            pk.parallel_for(self.n, self.nstream)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def init(self, i: int):
        self.A[i] = 0.0
        self.B[i] = 2.0
        self.C[i] = 2.0

    @pk.workunit
    def nstream(self, i: int):
        self.A[i] += self.B[i] + self.s * self.C[i]


@pk.workload
class Transpose50:
    """transpose x50: B[i, j] += A[j, i], fifty launches (PyFuser's T)."""

    def __init__(self, n: int):
        self.n: int = n
        self.reps: int = 50
        self.A: pk.View2D[pk.double] = pk.View([n, n], pk.double)
        self.B: pk.View2D[pk.double] = pk.View([n, n], pk.double)
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(pk.MDRangePolicy([0, 0], [self.n, self.n]), self.init)
        for w in range(self.reps):
            pk.parallel_for(pk.MDRangePolicy([0, 0], [self.n, self.n]), self.transpose)
        pk.fence()
        timer = pk.Timer()
        for r in range(self.reps):
            pk.parallel_for(pk.MDRangePolicy([0, 0], [self.n, self.n]), self.transpose)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def init(self, i: int, j: int):
        self.A[i][j] = 1.0 * (i * self.n + j)
        self.B[i][j] = 0.0

    @pk.workunit
    def transpose(self, i: int, j: int):
        self.B[i][j] += self.A[j][i]


@pk.workload
class BabelStream:
    """BabelStream's copy, mul, add, triad back to back (PyFuser's BS, 4 kernels)."""

    def __init__(self, n: int):
        self.n: int = n
        self.s: float = 0.4
        self.a: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.b: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.c: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        pk.parallel_for(self.n, self.copy)
        pk.parallel_for(self.n, self.mul)
        pk.parallel_for(self.n, self.add)
        pk.parallel_for(self.n, self.triad)
        pk.fence()
        timer = pk.Timer()
        pk.parallel_for(self.n, self.copy)
        pk.parallel_for(self.n, self.mul)
        pk.parallel_for(self.n, self.add)
        pk.parallel_for(self.n, self.triad)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def init(self, i: int):
        self.a[i] = 0.1
        self.b[i] = 0.2
        self.c[i] = 0.0

    @pk.workunit
    def copy(self, i: int):
        self.c[i] = self.a[i]

    @pk.workunit
    def mul(self, i: int):
        self.b[i] = self.s * self.c[i]

    @pk.workunit
    def add(self, i: int):
        self.c[i] = self.a[i] + self.b[i]

    @pk.workunit
    def triad(self, i: int):
        self.a[i] = self.b[i] + self.s * self.c[i]


@pk.workload
class GupsAtomic:
    """Two random-access atomic update kernels on one table (PyFuser's GA)."""

    def __init__(self, n: int):
        self.n: int = n
        self.t: int = n // 4
        self.table: pk.View1D[pk.int64] = pk.View([n // 4], pk.int64)
        self.idx: pk.View1D[pk.int64] = pk.View([n], pk.int64)
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        pk.parallel_for(self.n, self.update_a)
        pk.parallel_for(self.n, self.update_b)
        pk.fence()
        timer = pk.Timer()
        pk.parallel_for(self.n, self.update_a)
        pk.parallel_for(self.n, self.update_b)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def init(self, i: int):
        self.idx[i] = (i * 2654435761) % self.t

    @pk.workunit
    def update_a(self, i: int):
        pk.atomic_add(self.table, [self.idx[i]], i % 7)

    @pk.workunit
    def update_b(self, i: int):
        pk.atomic_add(self.table, [self.idx[i]], 1)


@pk.workload
class Mvt:
    """NPBench mvt: x1 += A @ y1 and x2 += A.T @ y2, one kernel each (PyFuser's M)."""

    def __init__(self, n: int):
        self.n: int = n
        self.A: pk.View2D[pk.double] = pk.View([n, n], pk.double)
        self.x1: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.x2: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.y1: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.y2: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        pk.parallel_for(self.n, self.mv1)
        pk.parallel_for(self.n, self.mv2)
        pk.fence()
        timer = pk.Timer()
        pk.parallel_for(self.n, self.mv1)
        pk.parallel_for(self.n, self.mv2)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def init(self, i: int):
        for j in range(self.n):
            self.A[i][j] = ((i * j + 1) % self.n) / self.n
        self.x1[i] = (i % self.n) / self.n
        self.x2[i] = ((i + 1) % self.n) / self.n
        self.y1[i] = ((i + 3) % self.n) / self.n
        self.y2[i] = ((i + 4) % self.n) / self.n

    @pk.workunit
    def mv1(self, i: int):
        s: float = 0.0
        for j in range(self.n):
            s += self.A[i][j] * self.y1[j]
        self.x1[i] += s

    @pk.workunit
    def mv2(self, i: int):
        s: float = 0.0
        for j in range(self.n):
            s += self.A[j][i] * self.y2[j]
        self.x2[i] += s


@pk.workload
class Jacobi1D:
    """NPBench jacobi_1d: two 3-point stencils per step (PyFuser's J); they
    read the neighbours of what the other wrote, so pkc does not fuse them."""

    def __init__(self, n: int):
        self.n: int = n
        self.steps: int = 20
        self.A: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.B: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        pk.fence()
        timer = pk.Timer()
        for t in range(self.steps):
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.step_b)
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.step_a)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def init(self, i: int):
        self.A[i] = (i + 2) / self.n
        self.B[i] = (i + 3) / self.n

    @pk.workunit
    def step_b(self, i: int):
        self.B[i] = 0.33333 * (self.A[i - 1] + self.A[i] + self.A[i + 1])

    @pk.workunit
    def step_a(self, i: int):
        self.A[i] = 0.33333 * (self.B[i - 1] + self.B[i] + self.B[i + 1])


@pk.workload
class Gups:
    """GUPS: generate the random indices and updates, then apply them to the
    table (PyFuser's G, 2 kernels); as in HPCC RandomAccess the index is the
    random number masked by the table size (a power of two); here the random
    number is an odd multiple of i, so the indices are a permutation and the
    plain update has no race."""

    def __init__(self, n: int):
        self.n: int = n
        self.table: pk.View1D[pk.int64] = pk.View([n], pk.int64)
        self.idx: pk.View1D[pk.int64] = pk.View([n], pk.int64)
        self.upd: pk.View1D[pk.int64] = pk.View([n], pk.int64)
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.generate)
        pk.parallel_for(self.n, self.update)
        pk.fence()
        timer = pk.Timer()
        pk.parallel_for(self.n, self.generate)
        pk.parallel_for(self.n, self.update)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def generate(self, i: int):
        self.idx[i] = (i * 2654435761) & (self.n - 1)
        self.upd[i] = (i * 40503) ^ (i >> 3)

    @pk.workunit
    def update(self, i: int):
        self.table[self.idx[i]] ^= self.upd[i]


@pk.workload
class Syrk:
    """NPBench syrk, C = alpha A A^T + beta C on the lower triangle, row by
    row: scale the row, then add the products (PyFuser's S, 2 kernels)."""

    def __init__(self, n: int):
        self.n: int = n
        self.m: int = n // 2
        self.alpha: float = 1.5
        self.beta: float = 1.2
        self.A: pk.View2D[pk.double] = pk.View([n, n // 2], pk.double)
        self.C: pk.View2D[pk.double] = pk.View([n, n], pk.double)
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        pk.fence()
        timer = pk.Timer()
        pk.parallel_for(self.n, self.scale)
        pk.parallel_for(self.n, self.rank_k)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def init(self, i: int):
        for k in range(self.m):
            self.A[i][k] = ((i * k + 1) % self.n) / self.n
        for j in range(self.n):
            self.C[i][j] = ((i * j + 2) % self.m) / self.m

    @pk.workunit
    def scale(self, i: int):
        for j in range(i + 1):
            self.C[i][j] *= self.beta

    @pk.workunit
    def rank_k(self, i: int):
        for k in range(self.m):
            for j in range(i + 1):
                self.C[i][j] += self.alpha * self.A[i][k] * self.A[j][k]


@pk.workload
class Syr2k:
    """NPBench syr2k, C = alpha (A B^T + B A^T) + beta C on the lower
    triangle, row by row: scale, then add the products (PyFuser's S2)."""

    def __init__(self, n: int):
        self.n: int = n
        self.m: int = n // 2
        self.alpha: float = 1.5
        self.beta: float = 1.2
        self.A: pk.View2D[pk.double] = pk.View([n, n // 2], pk.double)
        self.B: pk.View2D[pk.double] = pk.View([n, n // 2], pk.double)
        self.C: pk.View2D[pk.double] = pk.View([n, n], pk.double)
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        pk.fence()
        timer = pk.Timer()
        pk.parallel_for(self.n, self.scale)
        pk.parallel_for(self.n, self.rank_2k)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def init(self, i: int):
        for k in range(self.m):
            self.A[i][k] = ((i * k + 1) % self.n) / self.n
            self.B[i][k] = ((i * k + 2) % self.m) / self.m
        for j in range(self.n):
            self.C[i][j] = ((i * j + 3) % self.n) / self.m

    @pk.workunit
    def scale(self, i: int):
        for j in range(i + 1):
            self.C[i][j] *= self.beta

    @pk.workunit
    def rank_2k(self, i: int):
        for k in range(self.m):
            for j in range(i + 1):
                self.C[i][j] += (self.A[j][k] * self.alpha * self.B[i][k]
                                 + self.B[j][k] * self.alpha * self.A[i][k])


@pk.workload
class Covariance:
    """NPBench covariance: column means, centre the columns, then the
    covariance matrix (PyFuser's C, 3 kernels); the first two run over the
    columns and share mean[j] at the point (fused), the third reads every
    column the second wrote."""

    def __init__(self, n: int):
        self.n: int = n          # samples
        self.m: int = n // 4     # variables
        self.data: pk.View2D[pk.double] = pk.View([n, n // 4], pk.double)
        self.mean: pk.View1D[pk.double] = pk.View([n // 4], pk.double)
        self.cov: pk.View2D[pk.double] = pk.View([n // 4, n // 4], pk.double)
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        pk.fence()
        timer = pk.Timer()
        pk.parallel_for(self.m, self.column_mean)
        pk.parallel_for(self.m, self.center)
        pk.parallel_for(self.m, self.covariance)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def init(self, i: int):
        for j in range(self.m):
            self.data[i][j] = (i * j) / self.m + i % 7

    @pk.workunit
    def column_mean(self, j: int):
        s: float = 0.0
        for i in range(self.n):
            s += self.data[i][j]
        self.mean[j] = s / self.n

    @pk.workunit
    def center(self, j: int):
        for i in range(self.n):
            self.data[i][j] -= self.mean[j]

    @pk.workunit
    def covariance(self, i: int):
        for j in range(i, self.m):
            s: float = 0.0
            for k in range(self.n):
                s += self.data[k][i] * self.data[k][j]
            self.cov[i][j] = s / (self.n - 1.0)
            self.cov[j][i] = self.cov[i][j]


@pk.workload
class Adi:
    """NPBench adi: alternating-direction implicit sweeps, one kernel per NumPy
    statement over the interior i (PyFuser's A, 5 kernels per half step): the
    column half step's five kernels touch only column i of v and row i of p
    and q, so fusing them is legal, but they share no element at the point
    (the profitability rule: fused, these measured 1.04x on OpenMP and 1.16x
    on an H100, while syrk, syr2k and fdtd_2d, sharing rows the same way,
    measured 0.91-0.99x); the row half step reads v's neighbouring rows."""

    def __init__(self, n: int):
        self.n: int = n
        self.steps: int = 4
        dx: float = 1.0 / n
        dt: float = 1.0 / self.steps
        mul1: float = 2.0 * dt / (dx * dx)
        mul2: float = 1.0 * dt / (dx * dx)
        self.a: float = -mul1 / 2.0
        self.b: float = 1.0 + mul2
        self.c: float = -mul1 / 2.0
        self.d: float = -mul2 / 2.0
        self.e: float = 1.0 + mul2
        self.f: float = -mul2 / 2.0
        self.u: pk.View2D[pk.double] = pk.View([n, n], pk.double)
        self.v: pk.View2D[pk.double] = pk.View([n, n], pk.double)
        self.p: pk.View2D[pk.double] = pk.View([n, n], pk.double)
        self.q: pk.View2D[pk.double] = pk.View([n, n], pk.double)
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        pk.fence()
        timer = pk.Timer()
        for t in range(self.steps):
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.v_first)
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.pq_first_col)
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.sweep_col)
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.v_last)
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.back_col)
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.u_first)
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.pq_first_row)
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.sweep_row)
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.u_last)
            pk.parallel_for(pk.RangePolicy(1, self.n - 1), self.back_row)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def init(self, i: int):
        for j in range(self.n):
            self.u[i][j] = (i + self.n - j) / self.n

    @pk.workunit
    def v_first(self, i: int):
        self.v[0][i] = 1.0

    @pk.workunit
    def pq_first_col(self, i: int):
        self.p[i][0] = 0.0
        self.q[i][0] = self.v[0][i]

    @pk.workunit
    def sweep_col(self, i: int):
        for j in range(1, self.n - 1):
            self.p[i][j] = -self.c / (self.a * self.p[i][j - 1] + self.b)
            self.q[i][j] = ((-self.d * self.u[j][i - 1] + (1.0 + 2.0 * self.d) * self.u[j][i]
                             - self.f * self.u[j][i + 1] - self.a * self.q[i][j - 1])
                            / (self.a * self.p[i][j - 1] + self.b))

    @pk.workunit
    def v_last(self, i: int):
        self.v[self.n - 1][i] = 1.0

    @pk.workunit
    def back_col(self, i: int):
        for j in range(self.n - 2, 0, -1):
            self.v[j][i] = self.p[i][j] * self.v[j + 1][i] + self.q[i][j]

    @pk.workunit
    def u_first(self, i: int):
        self.u[i][0] = 1.0

    @pk.workunit
    def pq_first_row(self, i: int):
        self.p[i][0] = 0.0
        self.q[i][0] = self.u[i][0]

    @pk.workunit
    def sweep_row(self, i: int):
        for j in range(1, self.n - 1):
            self.p[i][j] = -self.f / (self.d * self.p[i][j - 1] + self.e)
            self.q[i][j] = ((-self.a * self.v[i - 1][j] + (1.0 + 2.0 * self.a) * self.v[i][j]
                             - self.c * self.v[i + 1][j] - self.d * self.q[i][j - 1])
                            / (self.d * self.p[i][j - 1] + self.e))

    @pk.workunit
    def u_last(self, i: int):
        self.u[i][self.n - 1] = 1.0

    @pk.workunit
    def back_row(self, i: int):
        for j in range(self.n - 2, 0, -1):
            self.u[i][j] = self.p[i][j] * self.u[i][j + 1] + self.q[i][j]


@pk.workload
class DotNorm:
    """BabelStream's dot and a norm of the same array, repeated: two sum
    reductions in one fused kernel (a and b read once instead of a twice)."""

    def __init__(self, n: int):
        self.n: int = n
        self.dot: float = 0.0
        self.norm2: float = 0.0
        self.a: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.b: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.reps: int = 20
        self.elapsed: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        self.dot = pk.parallel_reduce(self.n, self.dot_ab)
        self.norm2 = pk.parallel_reduce(self.n, self.norm_a)
        pk.fence()
        timer = pk.Timer()
        for r in range(self.reps):
            self.dot = pk.parallel_reduce(self.n, self.dot_ab)
            self.norm2 = pk.parallel_reduce(self.n, self.norm_a)
        pk.fence()
        self.elapsed = timer.seconds()

    @pk.workunit
    def init(self, i: int):
        self.a[i] = 0.1 + (i % 11) * 0.01
        self.b[i] = 0.2 - (i % 7) * 0.01

    @pk.workunit
    def dot_ab(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.a[i] * self.b[i]

    @pk.workunit
    def norm_a(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.a[i] * self.a[i]


def md_lj(nx):
    """examples/md_lj.py, 50 steps of NX^3 unit cells: its kinetic and
    potential energy reductions run as one fused kernel each step (the
    rest of the step is not fused: neighbour lists, atomics). The atomics
    order the neighbour lists differently from run to run, so only the
    energies of step 0 are compared (within rounding)."""
    import math
    import numpy as np
    from md_lj import LJ   # bench/fusion/run.py puts examples/ on sys.path
    n = 4 * nx ** 3
    v0 = np.random.default_rng(7).normal(size=(n, 3))
    v0 -= v0.mean(axis=0)
    v0 *= math.sqrt(1.4 / ((v0 * v0).sum() / (3 * n)))
    return LJ(nx, 50, 0.005, pk.from_numpy(v0))


SUBJECTS = {
    # name: (class, size on CPUs, size on GPUs, View to compare, PyFuser EPYC O, A100 O)
    "nstream x50": (NStream50, 1 << 22, 1 << 25, "A", 2.28, 25.41),
    "transpose x50": (Transpose50, 1024, 4096, "B", 3.52, 45.34),
    "BabelStream (copy, mul, add, triad)": (BabelStream, 1 << 24, 1 << 27, "a", 2.57, 2.25),
    "GUPS atomic (2 kernels)": (GupsAtomic, 1 << 24, 1 << 27, "table", 1.02, 1.94),
    "mvt": (Mvt, 2048, 8192, "x2", 3.34, 1.87),
    "jacobi_1d (not fused: stencils)": (Jacobi1D, 1 << 22, 1 << 25, "A", 1.24, 2.73),
    "GUPS (2 kernels; a scatter: fused on GPUs only)": (Gups, 1 << 24, 1 << 27, "table", 1.22, 1.88),
    "adi (not fused: rows, no shared point)": (Adi, 1024, 4096, "u", 3.74, 4.22),
    "syrk (not fused: rows)": (Syrk, 1024, 2048, "C", 2.64, 1.67),
    "syr2k (not fused: rows)": (Syr2k, 1024, 2048, "C", 1.87, 1.95),
    "covariance (2 of 3 kernels)": (Covariance, 1024, 4096, "cov", 1.10, 2.35),
    # several reductions in one kernel (no PyFuser figure: it fused one reduction)
    "dot + norm x20 (2 reductions)": (DotNorm, 1 << 22, 1 << 25, "dot,norm2", 0.0, 0.0),
    "md_lj, 50 steps (kinetic + potential)": (md_lj, 8, 40, "ke0,pe0,e0", 0.0, 0.0),
}
