"""Issue 7 s1: team workunits whose team member, accumulator and Views are
unannotated (the member is typed from the TeamPolicy at the call site)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def row_sums(team, out, A, cols):
    r: int = team.league_rank()

    def inner(j: int, tacc: pk.Acc[pk.double]):
        tacc += A[r][j]

    s: float = pk.parallel_reduce(pk.TeamThreadRange(team, cols), inner)

    def write():
        out[r] = s

    pk.single(pk.PerTeam(team), write)


@pk.workunit
def weighted(team, acc, A, w, cols):
    r: int = team.league_rank()

    def inner(j: int, tacc: pk.Acc[pk.double]):
        tacc += A[r][j] * w[j]

    s: float = pk.parallel_reduce(pk.TeamThreadRange(team, cols), inner)
    if team.team_rank() == 0:
        acc += s


@pk.workunit
def init(i, A, w, cols):
    if i < cols:
        w[i] = 1.0 + i
    for j in range(cols):
        A[i][j] = i + 0.5 * j


def main():
    rows, cols = 6, 5
    A = pk.View([rows, cols], pk.double)
    w = pk.View([cols], pk.double)
    out = pk.View([rows], pk.double)
    pk.parallel_for(rows, init, A=A, w=w, cols=cols)
    pk.parallel_for(pk.TeamPolicy(rows, pk.AUTO), row_sums, out=out, A=A, cols=cols)
    total = pk.parallel_reduce(pk.TeamPolicy(rows, pk.AUTO), weighted, A=A, w=w, cols=cols)

    a = np.arange(rows)[:, None] + 0.5 * np.arange(cols)[None, :]
    wv = 1.0 + np.arange(cols)
    bad = []
    if not np.allclose(np.asarray(out), a.sum(axis=1), rtol=1e-14):
        bad.append(f"row sums {np.asarray(out).tolist()}")
    if abs(total - float((a @ wv).sum())) > 1e-9:
        bad.append(f"weighted {total!r}, want {float((a @ wv).sum())}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
