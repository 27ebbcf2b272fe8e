# env: OMP_NUM_THREADS=4
"""A team reduction inside `if m.team_rank() == 0:` (issue 23): Kokkos needs
every thread of the team to enter a TeamThreadRange pattern. pkc moves the
reduction out of the branch (every thread computes it) and keeps only the
store under the condition. Teams of 4 threads on OpenMP (1 on Serial): before
the fix it hung there (the watchdog below ends it), on GPUs it summed only
thread 0's share. The second kernel's branch is the same for the whole team
(league_rank()): nothing moves and odd teams keep their -1."""
import faulthandler
import os

import numpy as np
import pykokkos as pk

faulthandler.dump_traceback_later(120, exit=True)  # a hang fails, it does not block CI


@pk.workunit
def count_rows(team_member: pk.TeamMember, out: pk.View1D[pk.int32], M: int):
    j: int = team_member.league_rank()
    if team_member.team_rank() == 0:
        def inner(i: int, acc: pk.Acc[pk.int32]):
            acc += 1 + i % 3
        temp: int = pk.parallel_reduce(pk.TeamThreadRange(team_member, M), inner)
        out[j] = temp + j


@pk.workunit
def even_rows(team_member: pk.TeamMember, out: pk.View1D[pk.int32], M: int):
    j: int = team_member.league_rank()
    if j % 2 == 0:
        def inner(i: int, acc: pk.Acc[pk.int32]):
            acc += i
        s: int = pk.parallel_reduce(pk.TeamThreadRange(team_member, M), inner)
        if team_member.team_rank() == 0:
            out[j] = s


backend = os.environ.get("PKC_BACKEND") or "openmp"
team = {"serial": 1, "cuda": 128, "hip": 64}.get(backend, 4)
league, M = 16, 128
out = pk.View([league], pk.int32)
pk.parallel_for(pk.TeamPolicy(league, team), count_rows, out=out, M=M)
want = sum(1 + i % 3 for i in range(M)) + np.arange(league)
got = np.asarray(out).copy()

out2 = pk.View([league], pk.int32)
out2.fill(-1)
pk.parallel_for(pk.TeamPolicy(league, team), even_rows, out=out2, M=M)
want2 = np.where(np.arange(league) % 2 == 0, M * (M - 1) // 2, -1)
got2 = np.asarray(out2)

if not np.array_equal(got, want) or not np.array_equal(got2, want2):
    print(f"BAD {got.tolist()} want {want.tolist()}; {got2.tolist()} want {want2.tolist()}")
else:
    print("OK")
