"""Team kernels whose threads share values through team scratch written by
some of them (issue 23's rule 2, widened): a fill by thread 0 under `if
team_rank() == 0`, a value from pk.single, the final pass of a nested scan
read backwards, a count that a uniform `if` tests, a flag thread 0 sets
before the program's own barrier, and smoothing in scratch whose copy back
overwrites what other threads still read. pkc puts a team_barrier() before
each first reader, and before that copy (on GPUs, and on CPUs with teams of
several threads, the readers would otherwise see stale or new elements).
Locals that only team rank 0 assigns (in pk.single through nonlocal, or
under `if team_rank() == 0`) and every thread reads get rank 0's value
(m.team_broadcast): without it the other threads keep their own. Teams of two threads on
OpenMP, one on Serial; numbers against numpy."""
import os

import numpy as np
import pykokkos as pk


@pk.workunit
def shared(team: pk.TeamMember, n: int, a: pk.View2D[pk.double], out: pk.View2D[pk.double]):
    e: int = team.league_rank()
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), n)
    if team.team_rank() == 0:
        for j in range(n):
            s[j] = a[e][j] * 2.0

    def reverse(j: int):
        out[e][j] = s[n - 1 - j]

    pk.parallel_for(pk.TeamThreadRange(team, n), reverse)


@pk.workunit
def scaled(team: pk.TeamMember, n: int, a: pk.View2D[pk.double], out: pk.View2D[pk.double]):
    e: int = team.league_rank()
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), 1)

    def head():
        mx: float = 0.0
        for j in range(n):
            mx = max(mx, a[e][j])
        s[0] = mx

    pk.single(pk.PerTeam(team), head)

    def norm(j: int):
        out[e][j] = a[e][j] / s[0]

    pk.parallel_for(pk.TeamThreadRange(team, n), norm)


@pk.workunit
def scanned(team: pk.TeamMember, n: int, a: pk.View2D[pk.double], out: pk.View2D[pk.double]):
    e: int = team.league_rank()
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), n)

    def scan(j: int, acc: pk.Acc[pk.double], final: bool):
        if final:
            s[j] = acc
        acc += a[e][j]

    pk.parallel_scan(pk.TeamThreadRange(team, n), scan)

    def backwards(j: int):
        out[e][j] = s[n - 1 - j]

    pk.parallel_for(pk.TeamThreadRange(team, n), backwards)


@pk.workunit
def counted(team: pk.TeamMember, n: int, a: pk.View2D[pk.double], out: pk.View2D[pk.double],
            cnt: pk.View1D[pk.int32], flag: pk.View1D[pk.int32]):
    e: int = team.league_rank()

    def count(j: int):
        if a[e][j] > 0.5:
            pk.atomic_add(cnt, [e], 1)

    pk.parallel_for(pk.TeamThreadRange(team, n), count)
    if cnt[e] > n // 2:
        def many(j: int):
            out[e][j] = 1.0

        pk.parallel_for(pk.TeamThreadRange(team, n), many)
    else:
        def few(j: int):
            out[e][j] = -1.0

        pk.parallel_for(pk.TeamThreadRange(team, n), few)
    if team.team_rank() == 0:
        flag[e] = 1 if a[e][0] > 0.5 else 0
    team.team_barrier()
    if flag[e] == 1:
        def double(j: int):
            out[e][j] = 2.0 * out[e][j]

        pk.parallel_for(pk.TeamThreadRange(team, n), double)


@pk.workunit
def smoothed(team: pk.TeamMember, n: int, sweeps: int, a: pk.View2D[pk.double],
             out: pk.View2D[pk.double]):
    e: int = team.league_rank()
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), n)
    tmp: pk.ScratchView1D[pk.double] = pk.ScratchView1D(team.team_scratch(0), n)

    def load(j: int):
        s[j] = a[e][j]

    pk.parallel_for(pk.TeamThreadRange(team, n), load)
    for sweep in range(sweeps):
        def smooth(j: int):
            left: float = s[j - 1] if j > 0 else s[j]
            right: float = s[j + 1] if j < n - 1 else s[j]
            tmp[j] = 0.25 * left + 0.5 * s[j] + 0.25 * right

        pk.parallel_for(pk.TeamThreadRange(team, n), smooth)

        def copy(j: int):
            s[j] = tmp[j]

        pk.parallel_for(pk.TeamThreadRange(team, n), copy)

    def store(j: int):
        out[e][j] = s[j]

    pk.parallel_for(pk.TeamThreadRange(team, n), store)


@pk.workunit
def broadcast(team: pk.TeamMember, n: int, a: pk.View2D[pk.double], out: pk.View2D[pk.double]):
    e: int = team.league_rank()
    scale: float = 0.0
    shift: float = 0.0

    def head():
        nonlocal scale
        scale = 1.0 / a[e][0]

    pk.single(pk.PerTeam(team), head)
    if team.team_rank() == 0:
        for j in range(n):
            shift = max(shift, a[e][j])

    def norm(j: int):
        out[e][j] = a[e][j] * scale + shift

    pk.parallel_for(pk.TeamThreadRange(team, n), norm)


def smoothed_numpy(x, sweeps):
    x = x.copy()
    for _ in range(sweeps):
        left = np.concatenate([x[:, :1], x[:, :-1]], axis=1)
        right = np.concatenate([x[:, 1:], x[:, -1:]], axis=1)
        x = 0.25 * left + 0.5 * x + 0.25 * right
    return x


league, n = 6, 37
rng = np.random.default_rng(11)
host = rng.random((league, n))
a = pk.View([league, n], pk.double)
a[:] = host
size = 1 if os.environ.get("PKC_BACKEND") == "serial" else 2
scratch = pk.ScratchView1D.shmem_size(n)
policy = pk.TeamPolicy(league, size).set_scratch_size(0, pk.PerTeam(scratch))
checks = []
for kernel, want in ((shared, host[:, ::-1] * 2.0),
                     (scaled, host / host.max(axis=1, keepdims=True)),
                     (scanned, (np.cumsum(host, axis=1) - host)[:, ::-1]),
                     (broadcast, host / host[:, :1] + host.max(axis=1, keepdims=True))):
    out = pk.View([league, n], pk.double)
    for _ in range(20):   # races show up now and then, not every run
        pk.parallel_for(policy, kernel, n=n, a=a, out=out)
        checks.append((kernel.__name__, np.allclose(np.asarray(out), want, rtol=1e-14), True))
out = pk.View([league, n], pk.double)
cnt = pk.View([league], pk.int32)
flag = pk.View([league], pk.int32)
pk.parallel_for(policy, counted, n=n, a=a, out=out, cnt=cnt, flag=flag)
many = (host > 0.5).sum(axis=1) > n // 2
want = np.where(many[:, None], 1.0, -1.0) * np.where(host[:, :1] > 0.5, 2.0, 1.0)
checks.append(("counted", np.asarray(out).tolist(), np.broadcast_to(want, (league, n)).tolist()))
two = pk.TeamPolicy(league, size).set_scratch_size(0, pk.PerTeam(2 * scratch))
want = smoothed_numpy(host, 5)
for _ in range(20):
    out = pk.View([league, n], pk.double)
    pk.parallel_for(two, smoothed, n=n, sweeps=5, a=a, out=out)
    checks.append(("smoothed", np.allclose(np.asarray(out), want, rtol=1e-14), True))
bad = [c[0] for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {sorted(set(bad))}")
