# expect-note: 8:20: annotate it to build it ahead of time (n: int)
"""An unannotated parameter used in index arithmetic through a local
(`(i - 1 + n) % n`): the note suggests int, not float."""
import pykokkos as pk


@pk.workunit
def shift(i, u, v, n):
    im = (i - 1 + n) % n
    v[i] = u[im]
