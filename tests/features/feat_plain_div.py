"""Integer // and % that pkc writes as C++'s / and % (the dividend provably
>= 0, the divisor a positive constant: ir/nonneg.c) give numpy's results, and
those it cannot prove keep Python's floor semantics: the work index (a
RangePolicy may begin below 0), a loop from a start known only at run time,
a loop variable the body assigns, a negative step. Each row mixes negative
and non-negative operands, so a wrong proof shows as a wrong number."""
import numpy as np
import pykokkos as pk

LO = -6


@pk.workunit
def divs(i: int, n: int, lo: int, out: pk.View2D[pk.int64]):
    r: int = i - LO
    out[r][0] = i % 4 + 10 * (i // 3)
    s: int = 0
    for a in range(n):
        s += a % 4 + 10 * (a // 3)
    out[r][1] = s
    t: int = 0
    for b in range(lo, n):
        t += b % 4 + 10 * (b // 3)
    out[r][2] = t
    u: int = 0
    for c in range(i, n):
        u += c % 5
    out[r][3] = u
    out[r][4] = (i - 10) % 7 // 2 + 10 * (abs(i) // 3)
    v: int = 0
    for d in range(n, -3, -2):
        v += d % 4
    out[r][5] = v
    w: int = 0
    for e in range(2, n):
        for f in range(e, n, 2):
            w += (f * e + 1) % 6 + min(e, f) // 4
    out[r][6] = w


@pk.workunit
def team_divs(m: pk.TeamMember, out: pk.View1D[pk.int64]):
    k: int = m.league_rank()
    out[k] = m.league_rank() % 3 + 10 * (m.league_size() // 2) + 100 * (m.team_rank() % 1)


def expect_row(i, n, lo):
    s = sum(a % 4 + 10 * (a // 3) for a in range(n))
    t = sum(b % 4 + 10 * (b // 3) for b in range(lo, n))
    u = sum(c % 5 for c in range(i, n))
    v = sum(d % 4 for d in range(n, -3, -2))
    w = sum((f * e + 1) % 6 + min(e, f) // 4 for e in range(2, n) for f in range(e, n, 2))
    return [i % 4 + 10 * (i // 3), s, t, u, (i - 10) % 7 // 2 + 10 * (abs(i) // 3), v, w]


n, lo, hi = 9, -5, 10
out = np.zeros((hi - LO, 7), dtype=np.int64)
pk.parallel_for(pk.RangePolicy(LO, hi), divs, n=n, lo=lo, out=out)
want = np.array([expect_row(i, n, lo) for i in range(LO, hi)], dtype=np.int64)

league = 5
tout = np.zeros(league, dtype=np.int64)
pk.parallel_for(pk.TeamPolicy(league, 1), team_divs, out=tout)
twant = np.array([k % 3 + 10 * (league // 2) for k in range(league)], dtype=np.int64)

checks = [out.tolist() == want.tolist(), tout.tolist() == twant.tolist()]
print("OK" if all(checks) else f"BAD {checks}\n{out}\n{want}\n{tout} {twant}")
