# Source of the hand-written fake module (fake_module.cpp). The shim tests
# copy this file next to fake.pk/ so that kernel lookup works as for a real
# pkc-built module. Its SHA-256 is compiled into the module's descriptor.
import pykokkos as pk


@pk.workunit
def nstream(i: int, A: pk.View1D[pk.double], B: pk.View1D[pk.double],
            C: pk.View1D[pk.double], scalar: float):
    A[i] += B[i] + scalar * C[i]


@pk.workunit
def noop(i: int):
    pass


@pk.workunit
def dot_sum(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double]):
    acc += x[i]


@pk.workunit
def count_pos(i: int, acc: pk.Acc[int], v: pk.View1D[int]):
    if v[i] > 0:
        acc += 1


@pk.workunit
def prefix(i: int, acc: pk.Acc[pk.double], final: bool,
           x: pk.View1D[pk.double], out: pk.View1D[pk.double]):
    acc += x[i]
    if final:
        out[i] = acc


@pk.workunit
def fill2d(i: int, M: pk.View2D[pk.double], k: int):
    for j in range(M.extent(1)):
        M[i][j] = i * 10 + j + k


@pk.functor
class Axpy:
    def __init__(self, a: float, x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
        self.a: float = a
        self.x: pk.View1D[pk.double] = x
        self.y: pk.View1D[pk.double] = y

    @pk.workunit
    def run(self, i: int):
        self.y[i] = self.a * self.x[i] + self.y[i]


# ---- dialect kernels (team, MDRange, reducers, random pools, workloads) ----

@pk.workunit
def noop_raw(i: int):
    pass   # the C++ side returns at once: measures the shim's own overhead


@pk.workunit
def team_sum(m: pk.TeamMember, acc: pk.Acc[pk.double], x: pk.View2D[pk.double]):
    row: int = m.league_rank()
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(m.team_scratch(0), 1)

    def part(j: int, a: pk.Acc[pk.double]):
        a += x[row][j]
    t: float = pk.parallel_reduce(pk.TeamThreadRange(m, x.extent(1)), part)

    def keep():
        s[0] = t
    pk.single(pk.PerTeam(m), keep)
    m.team_barrier()

    def add():
        nonlocal acc
        acc += s[0]
    pk.single(pk.PerTeam(m), add)


@pk.workunit
def md_fill(i: int, j: int, M: pk.View2D[pk.double]):
    M[i][j] = i * 100 + j


@pk.workunit
def md_fill3(i: int, j: int, k: int, T: pk.View3D[pk.int32]):
    T[i][j][k] = i * 100 + j * 10 + k


@pk.workunit
def md_max(i: int, j: int, acc: pk.Max[pk.double], M: pk.View2D[pk.double]):
    acc = max(acc, M[i][j])


@pk.workunit
def rand_fill(i: int, pool: pk.Random_XorShift64_Pool, out: pk.View1D[pk.double]):
    state = pool.get_state()
    out[i] = state.drand()
    pool.free_state(state)


@pk.workload
class Work:
    def __init__(self, n: int):
        self.n: int = n
        self.x: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.total: float = 0.0
        self.iters: int = 0
        self.done: bool = False

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.fill)
        self.total = pk.parallel_reduce(self.n, lambda i, acc: acc + self.x[i])
        self.iters = self.iters + 1
        self.done = True

    @pk.workunit
    def fill(self, i: int):
        self.x[i] = i

    @pk.callback
    def report(self):
        return (self.total, self.iters, self.done)


@pk.workunit
def team_raw(m: pk.TeamMember):
    pass   # C++: returns at once (shim overhead with a TeamPolicy)


@pk.workunit
def md_raw(i: int, j: int):
    pass   # C++: returns at once (shim overhead with an MDRangePolicy)
