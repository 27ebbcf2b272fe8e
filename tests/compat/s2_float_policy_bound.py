"""Issue 7 s2: a float policy bound, converted as C++ does: `self.n / 2` as
the range of a dispatch in @pk.main, and `cols / 2` as the bound of a nested
TeamThreadRange (n = 9 and cols = 7 give 4 and 3 iterations)."""
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Half:
    def __init__(self, n: int, cols: int):
        self.n: int = n
        self.cols: int = cols
        self.hits: pk.View1D[pk.int32] = pk.View([n], pk.int32)
        self.rows: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(self.n / 2, self.mark)
        pk.parallel_for(pk.TeamPolicy(self.n, pk.AUTO), self.row)

    @pk.workunit
    def mark(self, i: int):
        self.hits[i] = 1

    @pk.workunit
    def row(self, team: pk.TeamMember):
        r: int = team.league_rank()

        def inner(j: int, acc: pk.Acc[pk.double]):
            acc += j + 1.0

        s: float = pk.parallel_reduce(pk.TeamThreadRange(team, self.cols / 2), inner)
        if team.team_rank() == 0:
            self.rows[r] = s


def main():
    w = Half(9, 7)
    pk.execute(pk.ExecutionSpace.Default, w)
    hits = np.asarray(w.hits).tolist()
    rows = np.asarray(w.rows).tolist()
    if hits != [1, 1, 1, 1, 0, 0, 0, 0, 0] or rows != [6.0] * 9:
        print(f"BAD hits={hits} rows={rows}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
