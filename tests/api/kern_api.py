"""Kernels the tests/api tests run (built by pkc on first use into
tests/api/kern_api.pk/): they check that Views made by the array API and
the policies/instances/workloads of the host API reach real kernels."""
import pykokkos as pk


@pk.workunit
def axpy(i: int, y: pk.View1D[pk.double], x: pk.View1D[pk.double], a: float):
    y[i] += a * x[i]


@pk.workunit
def scale_i32(i: int, v: pk.View1D[pk.int32], k: int):
    v[i] = v[i] * k


@pk.workunit
def rowsum(i: int, A: pk.View2D[pk.double], r: pk.View1D[pk.double]):
    s: float = 0.0
    for j in range(A.extent(1)):
        s += A[i][j]
    r[i] = s


@pk.workunit
def total(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double]):
    acc += x[i]


@pk.workunit
def md_fill(i: int, j: int, A: pk.View2D[pk.double]):
    A[i][j] = i * 100.0 + j


@pk.workunit
def team_rows(m: pk.TeamMember, A: pk.View2D[pk.double], r: pk.View1D[pk.double]):
    i: int = m.league_rank()

    def inner(j: int, acc: pk.Acc[pk.double]):
        acc += A[i][j]

    s: float = pk.parallel_reduce(pk.TeamThreadRange(m, A.extent(1)), inner)
    if m.team_rank() == 0:
        r[i] = s


@pk.workload
class Stats:
    def __init__(self, x: pk.View1D[pk.double]):
        self.n: int = x.extent(0)
        self.x: pk.View1D[pk.double] = x
        self.sq: pk.View1D[pk.double] = pk.View([x.extent(0)], pk.double)
        self.total: float = 0.0
        self.sumsq: float = 0.0

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.square)
        self.total = pk.parallel_reduce(self.n, self.add)
        self.sumsq = pk.parallel_reduce(self.n, self.addsq)

    @pk.workunit
    def square(self, i: int):
        self.sq[i] = self.x[i] * self.x[i]

    @pk.workunit
    def add(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.x[i]

    @pk.workunit
    def addsq(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.sq[i]

    @pk.callback
    def report_total(self):
        print(f"total {self.total!r}")

    @pk.callback
    def report_sumsq(self):
        print(f"sumsq {self.sumsq!r} sq[-1] {float(self.sq[self.n - 1])!r}")


def run_md_fill(space, A):
    """md_fill over A with an MDRangePolicy whose first argument is space (an
    execution space or pk.ExecutionSpaceInstance); the call site tells pkc
    that md_fill is a rank-2 MDRange workunit."""
    pk.parallel_for(pk.MDRangePolicy(space, [0, 0], [A.extent(0), A.extent(1)]), md_fill, A=A)
