"""Launch ranges checked for Views indexed inside a loop (hardening: a range
past a View's extent must raise, not write past it): `M[i][j]` in `for j in
range(M.extent(1))`, `for j in range(m)` with m an argument, and a workload's
@pk.main dispatch. The check holds only where the loop runs: a View with no
columns, or m = 0, takes any range, as Python would run it; an access under
an `if` in the loop implies nothing. Also the values of good launches."""
import numpy as np
import pykokkos as pk


@pk.workunit
def fill_rows(i: int, M: pk.View2D[pk.double], k: int):
    for j in range(M.extent(1)):
        M[i][j] = i * 10 + j + k


@pk.workunit
def first_cols(i: int, M: pk.View2D[pk.double], m: int):
    for j in range(m):
        M[i][j] = 1.0


@pk.workunit
def guarded(i: int, M: pk.View2D[pk.double]):
    for j in range(M.extent(1)):
        if i < M.extent(0):
            M[i][j] = 2.0


@pk.workload
class Rows:
    def __init__(self, n: int, rows: int):
        self.n: int = n
        self.M: pk.View2D[pk.double] = pk.View([rows, 3], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.fill)

    @pk.workunit
    def fill(self, i: int):
        for j in range(self.M.extent(1)):
            self.M[i][j] = i + 0.5 * j


def raises(fn):
    try:
        fn()
    except ValueError as e:
        return "extent 3 in dimension 0" in str(e)
    return False


checks = []
M = pk.View([3, 4], pk.double)
checks.append(("loop over extent, range too long", raises(
    lambda: pk.parallel_for(5, fill_rows, M=M, k=1)), True))
pk.parallel_for(3, fill_rows, M=M, k=1)
checks.append(("good launch", np.asarray(M).tolist(),
               (np.arange(3)[:, None] * 10 + np.arange(4) + 1.0).tolist()))
empty = pk.View([3, 0], pk.double)
pk.parallel_for(5, fill_rows, M=empty, k=1)      # no columns: nothing is indexed
checks.append(("no columns, any range", empty.shape, (3, 0)))
checks.append(("loop over an argument", raises(
    lambda: pk.parallel_for(4, first_cols, M=M, m=2)), True))
pk.parallel_for(4, first_cols, M=M, m=0)          # the loop never runs
pk.parallel_for(5, guarded, M=M)                  # guarded in the loop: any range
checks.append(("guarded writes", np.asarray(M).tolist(), np.full((3, 4), 2.0).tolist()))
w = Rows(5, 3)
checks.append(("@pk.main dispatch", raises(lambda: pk.execute(pk.ExecutionSpace.Default, w)),
               True))
w = Rows(3, 3)
pk.execute(pk.ExecutionSpace.Default, w)
checks.append(("@pk.main values", np.asarray(w.M).tolist(),
               (np.arange(3)[:, None] + 0.5 * np.arange(3)).tolist()))

bad = [c for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
