# env: OMP_NUM_THREADS=4
"""A read after a nested TeamThreadRange parallel_for (issue 23): thread 0
sums the row the whole team just wrote. Nothing ordered the other threads'
writes before its reads, so pkc inserts team_member.team_barrier() there
(before the fix, teams of 4 threads on OpenMP summed stale zeros; on GPUs
16256 instead of 16384). The second kernel's later loop reads only the
element the same thread wrote (same range, same index): no barrier is needed
and none is added (tests/unit/test_team_sync.c checks the IR)."""
import faulthandler
import os

import numpy as np
import pykokkos as pk

faulthandler.dump_traceback_later(120, exit=True)


@pk.workunit
def row_total(team_member: pk.TeamMember, y: pk.View2D[pk.int32], out: pk.View1D[pk.int32],
              N: int):
    j: int = team_member.league_rank()

    def inner_for(i: int):
        y[j][i] = 1 + (i + j) % 4

    pk.parallel_for(pk.TeamThreadRange(team_member, N), inner_for)
    if team_member.team_rank() == 0:
        s: int = 0
        for k in range(N):
            s += y[j][k]
        out[j] = s


@pk.workunit
def twice(team_member: pk.TeamMember, y: pk.View2D[pk.int32], N: int):
    j: int = team_member.league_rank()

    def first(i: int):
        y[j][i] = i + j

    pk.parallel_for(pk.TeamThreadRange(team_member, N), first)

    def second(i: int):
        y[j][i] = 2 * y[j][i] + 1

    pk.parallel_for(pk.TeamThreadRange(team_member, N), second)


backend = os.environ.get("PKC_BACKEND") or "openmp"
team = {"serial": 1, "cuda": 128, "hip": 64}.get(backend, 4)
league, N = 64, 256
ok = True
for rep in range(20):  # the race shows on some repetitions only
    y = pk.View([league, N], pk.int32)
    out = pk.View([league], pk.int32)
    pk.parallel_for(pk.TeamPolicy(league, team), row_total, y=y, out=out, N=N)
    want = np.array([sum(1 + (i + j) % 4 for i in range(N)) for j in range(league)])
    got = np.asarray(out)
    if not np.array_equal(got, want):
        print(f"BAD repetition {rep}: {got.tolist()} want {want.tolist()}")
        ok = False
        break

z = pk.View([league, N], pk.int32)
pk.parallel_for(pk.TeamPolicy(league, team), twice, y=z, N=N)
want_z = 2 * (np.arange(N)[None, :] + np.arange(league)[:, None]) + 1
if not np.array_equal(np.asarray(z), want_z):
    print(f"BAD twice: {np.asarray(z)[:2].tolist()}")
    ok = False
print("OK" if ok else "BAD")
