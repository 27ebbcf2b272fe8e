"""@pk.main code as workload authors write it: a policy held in a local whose
scratch size is set by a statement of its own (`policy.set_scratch_size(...)`
after `policy = pk.TeamPolicy(...)`), and reductions used inside expressions
(`self.mean = pk.parallel_reduce(...) / self.n`, `self.total += ...` in a
loop, `math.sqrt(pk.parallel_reduce(...))`, two in one quotient), each run
once, before its statement, as Python runs them. Numbers against numpy."""
import math

import numpy as np
import pykokkos as pk


@pk.workload
class Stats:
    def __init__(self, x: np.ndarray, rows: int, cols: int):
        self.n: int = x.size
        self.rows: int = rows
        self.cols: int = cols
        self.x: pk.View1D[pk.double] = pk.View([x.size], pk.double)
        self.x[:] = x
        self.row_max: pk.View1D[pk.double] = pk.View([rows], pk.double)
        self.mean: float = 0.0
        self.l2: float = 0.0
        self.total: float = 0.0
        self.ratio: float = 0.0

    @pk.main
    def run(self):
        policy = pk.TeamPolicy(self.rows, pk.AUTO)
        policy.set_scratch_size(0, pk.PerTeam(pk.ScratchView1D.shmem_size(self.cols)))
        pk.parallel_for("rows", policy, self.rowwise)
        self.mean = pk.parallel_reduce("sum", self.n, self.sum) / self.n
        self.l2 = math.sqrt(pk.parallel_reduce("squares", self.n, self.squares))
        for k in range(3):
            self.total += pk.parallel_reduce("sum", self.n, self.sum) * (k + 1)
        self.ratio = pk.parallel_reduce(self.n, self.squares) / pk.parallel_reduce(self.n, self.count)

    @pk.workunit
    def rowwise(self, team: pk.TeamMember):
        r: int = team.league_rank()
        buf: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), self.cols)

        def load(j: int):
            buf[j] = self.x[r * self.cols + j]

        pk.parallel_for(pk.TeamThreadRange(team, self.cols), load)
        team.team_barrier()

        def biggest():
            m: float = buf[0]
            for j in range(1, self.cols):
                m = max(m, buf[j])
            self.row_max[r] = m

        pk.single(pk.PerTeam(team), biggest)

    @pk.workunit
    def sum(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.x[i]

    @pk.workunit
    def squares(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.x[i] * self.x[i]

    @pk.workunit
    def count(self, i: int, acc: pk.Acc[pk.double]):
        acc += 1.0


rows, cols = 24, 40
x = np.random.default_rng(3).random(rows * cols)
w = Stats(x, rows, cols)
pk.execute(pk.ExecutionSpace.Default, w)
checks = [
    ("row_max", np.asarray(w.row_max).tolist(), x.reshape(rows, cols).max(axis=1).tolist()),
    ("mean", math.isclose(w.mean, x.mean(), rel_tol=1e-12), True),
    ("l2", math.isclose(w.l2, math.sqrt((x * x).sum()), rel_tol=1e-12), True),
    ("total", math.isclose(w.total, 6.0 * x.sum(), rel_tol=1e-12), True),
    ("ratio", math.isclose(w.ratio, (x * x).sum() / x.size, rel_tol=1e-12), True),
]
bad = [c[0] for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
