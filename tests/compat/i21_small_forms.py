"""Issue 21 1.6: `acc = acc + x` on a sum accumulator (as `acc += x`); a bare
`printf(...)` in @pk.main (`from pykokkos import *`); a workunit named like a
math function (`sin`, `cos`) that calls that math function on View elements;
`pk.ScratchView1D[pk.double]` as a local's annotation with the one-argument
constructor (one element per team)."""
import math
import subprocess
import sys

import numpy as np
import pykokkos as pk
from pykokkos import *  # noqa: F401,F403 (printf, as PyKokkos programs write it)


@pk.workunit
def sq_sum(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double]):
    acc = acc + x[i] * x[i]


@pk.workunit
def sin(i: int, x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
    y[i] = math.sin(x[i])


@pk.workunit
def cos(i: int, x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
    y[i] += cos(x[i])


@pk.workunit
def team_first(team_member: pk.TeamMember, out: pk.View1D[pk.double]):
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team_member.team_scratch(0))
    if team_member.team_rank() == 0:
        s[0] = 2.0 * team_member.league_rank()
    team_member.team_barrier()
    out[team_member.league_rank()] = s[0] + 1.0


@pk.workload
class Report:
    def __init__(self, n: int):
        self.n: int = n
        self.total: float = 0.0

    @pk.main
    def run(self):
        self.total = pk.parallel_reduce(self.n, self.count)
        printf("total %d\n", int(self.total))

    @pk.workunit
    def count(self, i: int, acc: pk.Acc[pk.double]):
        acc = acc + 2.0


def child():
    pk.execute(pk.ExecutionSpace.Default, Report(21))


def main():
    n = 9
    x = pk.View([n], pk.double)
    x[:] = np.linspace(0.0, 2.0, n)
    y = pk.View([n], pk.double)
    s = pk.parallel_reduce(n, sq_sum, x=x)
    pk.parallel_for(n, sin, x=x, y=y)
    pk.parallel_for(n, cos, x=x, y=y)
    teams = pk.View([4], pk.double)
    policy = pk.TeamPolicy(4, pk.AUTO).set_scratch_size(0, pk.PerTeam(pk.ScratchView1D.shmem_size(1)))
    pk.parallel_for(policy, team_first, out=teams)
    xs = np.linspace(0.0, 2.0, n)
    out = subprocess.run([sys.executable, __file__, "child"], capture_output=True, text=True)
    bad = []
    if abs(s - float(np.sum(xs * xs))) > 1e-12:
        bad.append(f"s={s}")
    if not np.allclose(np.asarray(y), np.sin(xs) + np.cos(xs)):
        bad.append(f"y={np.asarray(y).tolist()}")
    if not np.array_equal(np.asarray(teams), 2.0 * np.arange(4) + 1.0):
        bad.append(f"teams={np.asarray(teams).tolist()}")
    if out.returncode != 0 or out.stdout.strip().splitlines()[-1:] != ["total 42"]:
        bad.append(f"child rc={out.returncode} out={out.stdout!r} err={out.stderr[-300:]!r}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    child() if sys.argv[1:] == ["child"] else main()
