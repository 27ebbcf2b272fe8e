"""Kokkos tutorial exercise team_policy (FunctionSty): two-level parallel y^T A x.

    pkc build examples/tutorial_team_policy.py
    python3 examples/tutorial_team_policy.py [N [M [NREPEAT]]]  (default 4096 x 1024, 100 repeats)

One team per row j (TeamPolicy(N, AUTO)); the team's threads share the inner
product of row j with x in a nested parallel_reduce over
TeamThreadRange(m, M), and one thread per team (pk.single(pk.PerTeam(m)))
adds y[j] * row to the kernel's accumulator. Each repeat is timed on its
own; the median is printed (compared with bench/team_policy_kokkos.cpp by
scripts/bench.py). The result must equal numpy's exact y^T A x.
PK_TIMING=batch times NREPEAT back-to-back reductions and one fence, divided by
NREPEAT, PK_TIMING_REPEATS (default 5) times, and reports the median. A reduction
returns its result to the host, so each call still waits for its kernel (as
bench/team_policy_kokkos.cpp's reduction into a host double does).
"""
# test-args: 64 48 3
import os
import statistics
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def init_rows(i: int, M: int, y: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    y[i] = 1.0 + (i % 7) * 0.5
    for j in range(M):
        A[i][j] = ((i + 2 * j) % 11) * 0.25


@pk.workunit
def init_x(i: int, x: pk.View1D[pk.double]):
    x[i] = (i % 5) - 1.5


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


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    M = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    nrepeat = int(sys.argv[3]) if len(sys.argv) > 3 else 100

    y = pk.View([N], pk.double)
    x = pk.View([M], pk.double)
    A = pk.View([N, M], pk.double)
    pk.parallel_for(N, init_rows, M=M, y=y, A=A)
    pk.parallel_for(M, init_x, x=x)
    policy = pk.TeamPolicy(N, pk.AUTO)

    result = pk.parallel_reduce(policy, yAx, M=M, y=y, x=x, A=A)  # warm-up
    pk.fence()
    times, mode = [], ""
    if os.environ.get("PK_TIMING") == "batch":
        repeats = int(os.environ.get("PK_TIMING_REPEATS", "5"))
        for _ in range(repeats):
            timer = pk.Timer()
            for _ in range(nrepeat):
                result = pk.parallel_reduce(policy, yAx, M=M, y=y, x=x, A=A)
            pk.fence()
            times.append(timer.seconds() / nrepeat)
        mode = f"timing=batch K={nrepeat} R={repeats} "
    else:
        for _ in range(nrepeat):
            timer = pk.Timer()
            result = pk.parallel_reduce(policy, yAx, M=M, y=y, x=x, A=A)
            pk.fence()
            times.append(timer.seconds())
    median = statistics.median(times)
    mbytes = 1e-6 * 8.0 * (N * M + N + M)
    print(f"tutorial_team_policy: N={N} M={M} nrepeat={nrepeat} {mode}median kernel {median * 1e3:.6f} ms "
          f"({1e-3 * mbytes / median:.2f} GB/s)")

    i, j = np.arange(N), np.arange(M)
    y_np = 1.0 + (i % 7) * 0.5
    x_np = (j % 5) - 1.5
    A_np = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    expect = float(y_np @ A_np @ x_np)
    scale = max(float(np.abs(y_np) @ np.abs(A_np) @ np.abs(x_np)), 1.0)
    if abs(result - expect) > 1e-12 * scale:
        print(f"tutorial_team_policy: verification FAILED (y^T A x = {result!r}, expected {expect!r})")
        sys.exit(1)
    print(f"tutorial_team_policy: verification PASSED (y^T A x = {result:.10g})")


if __name__ == "__main__":
    main()
