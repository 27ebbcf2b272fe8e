"""Issue 21 (upstream's implicit functions): an undecorated module-level
function a kernel calls, and the functions it calls in turn, are translated
as device functions, as PyKokkos does; a host function nobody calls from a
kernel is left alone (it would not translate). Also a bare dtype name as a
View element type (`pk.ScratchView1D[double]`, `from pykokkos import *`)
and a team kernel whose scratch comes from PerThread sizes only."""
import sys

import numpy as np
import pykokkos as pk
from pykokkos import *  # noqa: F401,F403 (double)


def leaf(i: int) -> int:
    return i + 1


def helper(i: int) -> int:
    return leaf(i) * 2


def host_only(path: str) -> None:
    with open(path) as f:        # not translatable: must not be touched
        print(f.read())


@pk.workunit
def uses_helpers(i: int, acc: pk.Acc[pk.int64]):
    acc += helper(i)


@pk.workunit
def per_thread(team: pk.TeamMember, out: pk.View1D[pk.double]):
    s: pk.ScratchView1D[double] = pk.ScratchView1D(team.team_scratch(0), team.team_size())
    s[team.team_rank()] = 1.0 + team.team_rank()
    team.team_barrier()
    if team.team_rank() == 0:
        t: float = 0.0
        for r in range(team.team_size()):
            t += s[r]
        out[team.league_rank()] = t


def main():
    total = pk.parallel_reduce(10, uses_helpers)
    out = pk.View([3], pk.double)
    policy = pk.TeamPolicy(3, pk.AUTO).set_scratch_size(0, pk.PerThread(64))
    pk.parallel_for(policy, per_thread, out=out)
    bad = []
    want = 0
    for i in range(10):        # (the star import shadows the builtin sum with pk.sum)
        want += 2 * (i + 1)
    if total != want:
        bad.append(f"total={total} want {want}")
    got = np.asarray(out)
    # each team sums 1 + rank over its t threads: t (t + 1) / 2, the same for every team
    triangular = [t * (t + 1) / 2 for t in range(1, 1025)]
    if not (got[0] in triangular and np.array_equal(got, np.full(3, got[0]))):
        bad.append(f"per-thread scratch sums={got.tolist()}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
